/** Context for the New Zealand dollar: Stats NZ, the dairy auction, the PMI and the RBNZ. */
import { STATSNZ, decision, positioning, speech, type EventContext } from './kinds.js';

const RBNZ = 'the Reserve Bank of New Zealand (RBNZ)';

export const NZD: Record<string, EventContext> = {
  'nz-cpi': {
    source: STATSNZ,
    measures: 'The quarterly change in New Zealand consumer prices.',
    why: 'Only quarterly, so each print carries a whole quarter of inflation news for the RBNZ.',
  },
  'nz-unemployment': {
    source: STATSNZ,
    measures:
      'The share of the labour force without a job, from the quarterly Household Labour Force Survey.',
    why: 'The RBNZ weighs employment in its remit; the quarterly print moves the kiwi.',
  },
  'nz-gdp': {
    source: STATSNZ,
    measures: "The quarterly change in New Zealand's output.",
    why: "The broadest read of the economy, published late, so it mostly confirms or corrects the RBNZ's view.",
  },
  'nz-secondary-0': {
    source: STATSNZ,
    measures: 'Exports minus imports of New Zealand goods in the month, in New Zealand dollars.',
    why: 'New Zealand runs a wide current-account deficit; the goods balance shows whether dairy and meat exports narrow it.',
  },
  'nz-secondary-1': {
    source: 'BusinessNZ, with BNZ',
    measures:
      'The Performance of Manufacturing Index, a survey of New Zealand manufacturers; above 50 means expansion.',
    why: "The first read of the month on New Zealand's small, export-heavy industry.",
  },
  'nz-gdt': {
    source: 'Global Dairy Trade (Fonterra)',
    measures: 'The change in the average price at the twice-monthly auction of dairy products.',
    why: "Dairy is New Zealand's largest export; prices feed farm incomes and the kiwi.",
  },
  'nz-weekly-14': positioning(
    'New Zealand dollar futures (CME)',
    "A thin market where speculators' positions swing widely; extremes in the kiwi often mark turns in risk appetite.",
  ),
  'nz-rbnz': decision(
    RBNZ,
    'The Official Cash Rate and the rate track in the statement move the kiwi.',
  ),
  'nz-speaker-14': speech(
    RBNZ,
    'Christian Hawkesby, who chaired its Monetary Policy Committee as Governor in 2025',
    'The RBNZ speaks rarely between decisions; a senior voice on the rate track can reprice the next meeting.',
  ),
};
