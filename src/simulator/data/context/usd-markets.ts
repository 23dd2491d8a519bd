/**
 * Context for the dollar's weekly data, Treasury auctions, speculators' positioning in US
 * markets, the Fed's speakers and the US holiday.
 */
import { EIA, TREASURY, auction, positioning, speech, type EventContext } from './kinds.js';

const DOL = 'U.S. Department of Labor';
const FED_BOARD = 'the Federal Reserve Board';

export const USD_MARKETS: Record<string, EventContext> = {
  'us-claims': {
    source: DOL,
    measures:
      'The number of people filing for unemployment insurance for the first time in the past week.',
    why: 'The most timely labour-market data; a run of rising claims is an early sign of layoffs.',
  },
  'us-weekly-0': {
    source: DOL,
    measures:
      'The number of people still receiving unemployment insurance, a week behind initial claims.',
    why: 'Shows whether the jobless find work again; a steady climb means hiring has slowed even without layoffs.',
  },
  'us-crude': {
    source: EIA,
    measures: 'The weekly change in US commercial crude oil inventories, in barrels.',
    effect:
      'A draw bigger than forecast lifts oil = good for the Canadian dollar; the US dollar barely moves',
    why: 'The official weekly balance of US oil supply and demand, which moves oil prices and oil-linked currencies.',
  },
  'us-weekly-1': {
    source: 'American Petroleum Institute (API)',
    measures:
      "The weekly change in US crude inventories reported by the industry's members, in barrels.",
    effect: 'A draw bigger than expected lifts oil = good for oil-linked currencies',
    why: "A private preview, the evening before, of the EIA's official inventory figures.",
  },
  'us-natgas': {
    source: EIA,
    measures:
      'The weekly change in natural gas held in underground storage, in billion cubic feet.',
    effect: 'A build smaller than forecast lifts gas prices; rarely moves currencies',
    why: 'Sets US gas prices, which feed power costs, headline inflation and LNG exports.',
  },
  'us-rigs': {
    source: 'Baker Hughes',
    measures: 'The number of rigs actively drilling for oil in the US that week.',
    effect: 'Little on currencies; a falling count points to less US oil supply later',
    why: 'The earliest sign of how shale producers answer oil prices, months before output changes.',
  },
  'us-mba': {
    source: 'Mortgage Bankers Association (MBA)',
    measures:
      'The weekly change in mortgage applications, for purchases and refinancing, in its survey of lenders.',
    why: 'The fastest read of how mortgage rates hit housing demand, weeks before home sales figures.',
  },
  'us-redbook': {
    source: 'Redbook Research',
    measures: 'Same-store sales at large US general-merchandise retailers against a year earlier.',
    why: 'A weekly pulse of shop sales between the monthly retail reports, watched in the holiday season.',
  },
  'us-weekly-4': {
    source: `${FED_BOARD} (H.4.1 release)`,
    measures: "The total assets on the Federal Reserve's balance sheet on Wednesday of the week.",
    effect: 'Small; a shrinking balance sheet drains dollar liquidity = mildly good for currency',
    why: 'Shows how fast the Fed adds or drains reserves: bond run-off, bill purchases or emergency loans to banks.',
  },
  'us-10y': auction(
    TREASURY,
    '10-year Treasury notes',
    'high (clearing) yield',
    "The benchmark for mortgages and much of the world's borrowing; a weak sale can lift yields across the curve.",
  ),
  'us-4w-bill': auction(
    TREASURY,
    '4-week Treasury bills',
    'high (clearing) rate',
    'The shortest bill shows how money markets price the next Fed move and any debt-ceiling risk.',
  ),
  'us-weekly-2': auction(
    TREASURY,
    '13-week (3-month) Treasury bills',
    'high (clearing) rate',
    'Its rate sits close to the expected fed funds rate over the quarter ahead.',
  ),
  'us-weekly-3': auction(
    TREASURY,
    '26-week (6-month) Treasury bills',
    'high (clearing) rate',
    'Prices the Fed path two or three meetings out; a drop below the 3-month rate signals expected cuts.',
  ),
  'us-weekly-5': positioning(
    'crude oil futures (NYMEX WTI)',
    'Shows how far hedge funds lean on oil; a crowded long can unwind fast and drag the Canadian dollar.',
  ),
  'us-weekly-6': positioning(
    'gold futures (COMEX)',
    'Gold positioning mirrors bets on real rates and the dollar; an extreme long is a risk for both.',
  ),
  'us-weekly-7': positioning(
    'S&P 500 stock index futures (CME)',
    "A gauge of speculators' appetite for US stocks; a deep net short can fuel a squeeze that lifts risk currencies.",
  ),
  'us-speaker-0': speech(
    FED_BOARD,
    'Governor Christopher Waller, who votes at every FOMC meeting',
    'He often lays out the case for the next rate move in detail before the committee makes it.',
  ),
  'us-speaker-1': speech(
    'the Federal Reserve Bank of New York',
    "John Williams, its President and the FOMC's Vice Chair",
    "He votes at every meeting and his bank runs policy in markets; his view is read as close to the Chair's.",
  ),
  'us-speaker-2': speech(
    FED_BOARD,
    'Michelle Bowman, Governor and Vice Chair for Supervision',
    'Beside her rate views, she speaks for bank rules and capital, which shape Treasury demand and bank stocks.',
  ),
  'us-speaker-3': speech(
    'the Federal Reserve Bank of Chicago',
    'Austan Goolsbee, its President, who votes on the FOMC in rotation',
    'A frequent voice between meetings; his read of tariffs and prices hints at how the regional presidents lean.',
  ),
  'us-speaker-4': speech(
    'the Federal Reserve Bank of Dallas',
    'Lorie Logan, its President, who votes on the FOMC in rotation',
    "She once ran the New York Fed's market operations; her words on the balance sheet and money-market rates carry weight.",
  ),
  'us-holiday': {
    source: 'U.S. federal holiday (markets: NYSE, SIFMA)',
    measures:
      'No figure: US exchanges and federal offices are closed; stock and bond markets close early the day after.',
    frequency: 'Once a year, the fourth Thursday of November',
    effect: 'No figure; thin liquidity can exaggerate moves elsewhere',
    why: "No US data that day and a half-empty Friday after it; the week's US releases crowd into Wednesday.",
  },
};
