/** Context for the pound: the ONS's releases, the surveys, the budget and the Bank of England. */
import {
  ONS,
  auction,
  coreCpi,
  decision,
  flashPmi,
  positioning,
  speech,
  type EventContext,
} from './kinds.js';

const BOE = 'the Bank of England';

export const GBP: Record<string, EventContext> = {
  'uk-cpi': {
    source: ONS,
    measures: 'UK consumer prices against a year earlier.',
    why: "The Bank of England's 2% target is on this measure.",
  },
  'uk-core-cpi': coreCpi(
    ONS,
    'UK',
    'against a year earlier, without energy, food, alcohol and tobacco',
    'The MPC cites core and services inflation when it explains each vote; a surprise moves rate-cut bets at once.',
  ),
  'uk-unemployment': {
    source: ONS,
    measures:
      'The share of the labour force out of work over three months, from the Labour Force Survey.',
    why: 'Slack in the labour market decides how long wage growth stays high.',
  },
  'uk-claimant': {
    source: ONS,
    measures: 'The change in the number of people claiming unemployment-related benefits.',
    why: 'A monthly, timely read of joblessness in the same release as wages and the ILO rate.',
  },
  'uk-secondary-2': {
    source: ONS,
    measures:
      'Average weekly earnings including bonuses, three months against the same three a year earlier.',
    why: "Wage growth is the Bank of England's main worry for services inflation.",
  },
  'uk-retail': {
    source: ONS,
    measures: 'The monthly change in the volume of goods sold by retailers.',
    why: 'The main monthly read of UK consumer spending.',
  },
  'uk-gdp': {
    source: ONS,
    measures: "The monthly change in the UK's output.",
    why: 'The UK publishes GDP monthly; a run of weak months moves Bank of England pricing.',
  },
  'uk-secondary-0': {
    source: ONS,
    measures: 'The monthly change in the output of UK manufacturers, published with monthly GDP.',
    why: "It explains much of monthly GDP's swings; exporters' output shows how tariffs and sterling bite.",
  },
  'uk-flash-mfg': flashPmi(
    'S&P Global',
    'the UK',
    'manufacturing',
    'A small part of UK output, but the first hint each month of how exporters and energy costs fare.',
  ),
  'uk-flash-svc': flashPmi(
    'S&P Global',
    'the UK',
    'services',
    "Services are about four fifths of UK output; the flash is the earliest read of the quarter's growth.",
  ),
  'uk-secondary-1': {
    source: 'S&P Global',
    measures:
      'The final monthly survey of purchasing managers at UK services firms; above 50 means activity grew.',
    why: 'It confirms or revises the flash; its input-price index tracks the wage pressure the Bank watches.',
  },
  'uk-secondary-3': {
    source: 'Nationwide Building Society',
    measures:
      "The monthly change in UK house prices, from the lender's own mortgage approvals, seasonally adjusted.",
    why: 'The first house-price figure of the month; housing wealth and mortgage costs drive UK spending.',
  },
  'uk-weekly-18': auction(
    'UK Debt Management Office (DMO)',
    'a 10-year conventional gilt',
    'average accepted yield',
    "Since 2022 gilt demand is the market's verdict on UK public finances; a weak auction can hit the pound with the bonds.",
  ),
  'uk-election': {
    source: 'HM Treasury (the Chancellor of the Exchequer)',
    measures:
      "No figure: the government's tax and spending plans, with the Office for Budget Responsibility's forecasts for growth and borrowing.",
    frequency: 'Once a year, usually in the autumn',
    effect: 'No figure; plans that worry gilt investors (more borrowing) can weigh on the pound',
    why: 'It sets how much the government borrows; gilts, and the pound with them, react to the fiscal headroom left.',
  },
  'uk-weekly-9': positioning(
    'British pound futures (CME)',
    "Sterling gets crowded when its carry looks good; a shift in speculators' bets often comes before a turn in GBP/USD.",
  ),
  'uk-boe': decision(
    'the Bank of England (MPC)',
    "Bank Rate and the committee's vote split move the pound; a split vote signals the next step.",
  ),
  'uk-speaker-9': speech(
    BOE,
    'Governor Andrew Bailey, who chairs the Monetary Policy Committee',
    "The Governor's view of inflation and wages often previews the committee's next vote.",
  ),
  'uk-speaker-10': speech(
    BOE,
    'Huw Pill, its chief economist and a member of the MPC',
    "His caution about cutting too fast makes him the committee's hawkish bellwether.",
  ),
};
