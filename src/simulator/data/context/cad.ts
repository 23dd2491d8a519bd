/** Context for the Canadian dollar: Statistics Canada, the Ivey survey and the Bank of Canada. */
import { STATCAN, coreCpi, decision, positioning, speech, type EventContext } from './kinds.js';

export const CAD: Record<string, EventContext> = {
  'ca-employment': {
    source: STATCAN,
    measures: 'The change in the number of people employed, from the Labour Force Survey.',
    why: 'Often out the same morning as US payrolls; the two together move USD/CAD.',
  },
  'ca-unemployment': {
    source: STATCAN,
    measures:
      "The share of Canada's labour force without a job and looking for one, from the Labour Force Survey.",
    why: 'The Bank of Canada watches slack to judge how far to move rates.',
  },
  'ca-cpi': {
    source: STATCAN,
    measures: 'Canadian consumer prices against a year earlier.',
    why: "The Bank of Canada's 2% target is on this measure.",
  },
  'ca-core-cpi': coreCpi(
    STATCAN,
    'Canadian',
    "against a year earlier, by the Bank of Canada's trimmed-mean and median measures",
    'The Bank of Canada steers by these two measures; they decide its moves more than the headline does.',
  ),
  'ca-secondary-0': {
    source: STATCAN,
    measures: 'The monthly change in the value of retail sales.',
    why: 'The main monthly read of Canadian consumer spending.',
  },
  'ca-core-retail': {
    source: STATCAN,
    measures: 'Retail sales without motor vehicle and parts dealers.',
    why: 'Car sales swing the Canadian total; without them the figure shows what households buy day to day.',
  },
  'ca-secondary-1': {
    source: STATCAN,
    measures:
      "The monthly change in Canada's real GDP by industry, with an advance estimate for the month after.",
    why: 'Canada reports GDP monthly; the advance estimate gives the market a month’s head start on the quarter.',
  },
  'ca-secondary-2': {
    source: 'Ivey Business School (Western University)',
    measures:
      'A survey of Canadian purchasing managers on the value of their purchases, seasonally adjusted; above 50 means more.',
    why: 'One of the few monthly business surveys in Canada; read for turns in activity, though it is noisy.',
  },
  'ca-weekly-12': positioning(
    'Canadian dollar futures (CME)',
    "Speculators' bets on the loonie follow oil and the rate gap with the US; an extreme short can snap back on one strong print.",
  ),
  'ca-boc': decision(
    'the Bank of Canada',
    'The rate gap with the Fed is the main driver of USD/CAD beside oil.',
  ),
  'ca-speaker-12': speech(
    'the Bank of Canada',
    'Governor Tiff Macklem',
    "Canada's economy hangs on US trade; the Governor's view of tariffs and of the gap with the Fed moves USD/CAD.",
  ),
};
