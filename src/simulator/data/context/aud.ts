/** Context for the Australian dollar: the ABS, the surveys and the Reserve Bank of Australia. */
import {
  ABS,
  coreCpi,
  decision,
  flashPmi,
  positioning,
  speech,
  type EventContext,
} from './kinds.js';

export const AUD: Record<string, EventContext> = {
  'au-employment': {
    source: ABS,
    measures: 'The change in the number of people employed, seasonally adjusted.',
    why: 'The RBA reads the labour market closely; a big miss moves the Australian dollar at once.',
  },
  'au-unemployment': {
    source: ABS,
    measures:
      "The share of Australia's labour force without a job and looking for one, seasonally adjusted.",
    why: 'The RBA judges full employment on it.',
  },
  'au-cpi': {
    source: ABS,
    measures:
      "Consumer prices against a year earlier, from the complete monthly CPI: Australia's headline inflation measure since November 2025.",
    why: 'Once a partial preview of the quarterly CPI, the monthly print is now the headline figure the RBA answers to.',
  },
  'au-core-cpi': coreCpi(
    ABS,
    'Australian',
    'against a year earlier, by the trimmed mean',
    "The RBA reads the trimmed mean as inflation's trend against its 2–3% target; a miss moves pricing for the next meeting.",
  ),
  'au-flash-mfg': flashPmi(
    'S&P Global',
    'Australia',
    'manufacturing',
    'An early read on Australian factories: small next to mining, but sensitive to China and the currency.',
  ),
  'au-flash-svc': flashPmi(
    'S&P Global',
    'Australia',
    'services',
    "Services are most of Australia's output; the flash gives the RBA a first look at the month's demand.",
  ),
  'au-secondary-0': {
    source: ABS,
    measures:
      'The monthly change in household spending, seasonally adjusted, from the bank-card data of the Monthly Household Spending Indicator, which replaced the Retail Trade survey in 2025.',
    why: 'Most Australian mortgages float, so spending shows quickly how the cash rate bites on households.',
  },
  'au-secondary-1': {
    source: ABS,
    measures:
      'Exports minus imports of Australian goods and services in the month, in Australian dollars.',
    why: "Iron ore, coal and gas keep Australia in surplus; the balance tracks commodity prices and China's demand.",
  },
  'au-secondary-2': {
    source: 'Westpac–Melbourne Institute',
    measures:
      'The monthly change in an index of consumer sentiment from a survey of households; above 100 means optimists outnumber pessimists.',
    why: 'Out early in the month, it is the first read of household mood after each RBA decision.',
  },
  'au-weekly-11': positioning(
    'Australian dollar futures (CME)',
    'The Australian dollar trades as a proxy for China and risk appetite; its positioning shows how bearish that view has become.',
  ),
  'au-rba': decision(
    'the Reserve Bank of Australia (RBA)',
    "The cash rate and the statement set the Australian dollar's yield appeal.",
  ),
  'au-speaker-13': speech(
    'the Reserve Bank of Australia (RBA)',
    'Governor Michele Bullock',
    "She explains each decision at its press conference; a speech between meetings is the main hint of the board's next step.",
  ),
};
