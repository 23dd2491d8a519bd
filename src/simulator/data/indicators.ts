/**
 * The recurring indicators of the major economies the simulator publishes: real names,
 * release times, units, potencies and plausible levels, one row per indicator in one
 * table (ROWS). What each one is, for the event's description, is in descriptions.ts.
 */
import type { CategoryKey } from './categories.js';
import { descriptionOf } from './descriptions.js';

export interface Indicator {
  key: string;
  name: string;
  country: string;
  currency: string;
  category: CategoryKey;
  volatility: Volatility;
  unit: string | null;
  potency: 'ZERO' | 'K' | 'M' | 'B' | 'T';
  /** Typical level and the size of a typical surprise. */
  level: number;
  spread: number;
  decimals: number;
  /** Lower is better (unemployment, claims, …). */
  inverted?: boolean;
  /**
   * The agency revises the previous period's figure at each release (payrolls, GDP, retail
   * sales, claims, PCE, trade, Ifo, …): the demo publishes a revised previous with each print.
   */
  revises?: boolean;
  /** Nobody forecasts it (CFTC positioning): no consensus, so no beat or miss either. */
  noConsensus?: boolean;
  /** `adhoc`: on some weekdays at random (central bankers' speeches). */
  frequency: Frequency;
  /** "HH:MM" UTC as of late November; schedule.ts keeps the local clock it stands for. */
  time: string;
  /** ISO weekday 1–5 for weekly ones. */
  weekday?: number;
  speech?: boolean;
  description: string;
}

type Volatility = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';
type Frequency = 'weekly' | 'monthly' | 'quarterly' | 'meeting' | 'adhoc';
type Flag = 'revises' | 'inverted' | 'noConsensus' | 'speech';
/**
 * What a figure is counted in: a unit ('%'), a potency ('K', 'M', 'B': thousands, millions,
 * billions), or a currency amount in a potency ('$B'); null for an index or a count.
 */
type Figure = null | '%' | 'K' | 'M' | 'B' | '$B' | '€B' | '¥B';
/**
 * When it prints, "HH:MM" UTC as of late November: monthly; "Thu 13:30": weekly on that
 * day; "quarterly 13:30", "meeting 19:00" (on its bank's dates), "adhoc 15:00" (speeches).
 */
type When = string;

type Row = [
  country: string,
  key: string,
  name: string,
  category: CategoryKey,
  volatility: Volatility,
  figure: Figure,
  level: number,
  spread: number,
  decimals: number,
  when: When,
  flags?: Flag[],
];

const CURRENCY: Record<string, string> = {
  US: 'USD',
  EMU: 'EUR',
  DE: 'EUR',
  FR: 'EUR',
  UK: 'GBP',
  JP: 'JPY',
  CN: 'CNY',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  CH: 'CHF',
};

// prettier-ignore
const ROWS: Row[] = [
  // Headline releases and central-bank decisions
  ['US',  'us-nfp',          'Nonfarm Payrolls',                          'labor',            'HIGH',   'K',  180,   60,   0, '13:30',           ['revises']],
  ['US',  'us-unemployment', 'Unemployment Rate',                         'labor',            'HIGH',   '%',  4.1,   0.1,  1, '13:30',           ['inverted']],
  ['US',  'us-cpi-mm',       'Consumer Price Index (MoM)',                'inflation',        'HIGH',   '%',  0.3,   0.1,  1, '13:30'],
  ['US',  'us-cpi-yy',       'Consumer Price Index (YoY)',                'inflation',        'HIGH',   '%',  2.9,   0.1,  1, '13:30'],
  ['US',  'us-core-pce',     'Core PCE Price Index (MoM)',                'inflation',        'HIGH',   '%',  0.2,   0.1,  1, '13:30',           ['revises']],
  ['US',  'us-gdp',          'Gross Domestic Product Annualized',         'economicActivity', 'HIGH',   '%',  2.4,   0.4,  1, 'quarterly 13:30', ['revises']],
  ['US',  'us-ism-mfg',      'ISM Manufacturing PMI',                     'economicActivity', 'HIGH',   null, 48.7,  1,    1, '15:00'],
  ['US',  'us-ism-svc',      'ISM Services PMI',                          'economicActivity', 'HIGH',   null, 52.4,  1.2,  1, '15:00'],
  ['US',  'us-retail',       'Retail Sales (MoM)',                        'consumption',      'HIGH',   '%',  0.3,   0.4,  1, '13:30',           ['revises']],
  ['US',  'us-claims',       'Initial Jobless Claims',                    'labor',            'MEDIUM', 'K',  225,   12,   0, 'Thu 13:30',       ['revises', 'inverted']],
  ['US',  'us-fed',          'Fed Interest Rate Decision',                'interestRates',    'HIGH',   '%',  4.5,   0,    2, 'meeting 19:00'],
  ['US',  'us-trade',        'Goods and Services Trade Balance',          'capitalFlows',     'MEDIUM', '$B', -70.2, 3.5,  1, '13:30',           ['revises']],
  ['US',  'us-crude',        'EIA Crude Oil Stocks Change',               'energy',           'MEDIUM', 'M',  -0.8,  2.5,  3, 'Wed 15:30',       ['inverted']],
  ['US',  'us-housing',      'Housing Starts',                            'housing',          'LOW',    'M',  1.36,  0.05, 3, '13:30'],
  ['US',  'us-powell',       'FOMC Press Conference',                     'centralBanks',     'HIGH',   null, 0,     0,    0, 'meeting 19:30',   ['speech']],
  ['US',  'us-10y',          '10-Year Note Auction',                      'bondAuctions',     'LOW',    '%',  4.3,   0.05, 3, '18:00'],
  ['EMU', 'emu-hicp',        'Harmonized Index of Consumer Prices (YoY)', 'inflation',        'HIGH',   '%',  2.2,   0.1,  1, '10:00'],
  ['EMU', 'emu-ecb',         'ECB Main Refinancing Operations Rate',      'interestRates',    'HIGH',   '%',  2.15,  0,    2, 'meeting 13:15'],
  ['EMU', 'emu-gdp',         'Gross Domestic Product s.a. (QoQ)',         'economicActivity', 'MEDIUM', '%',  0.2,   0.1,  1, 'quarterly 10:00', ['revises']],
  ['EMU', 'emu-pmi',         'HCOB Composite PMI',                        'economicActivity', 'MEDIUM', null, 50.1,  0.8,  1, '09:00'],
  ['EMU', 'emu-lagarde',     'ECB Press Conference',                      'centralBanks',     'HIGH',   null, 0,     0,    0, 'meeting 13:45',   ['speech']],
  ['DE',  'de-zew',          'ZEW Survey – Economic Sentiment',           'economicActivity', 'MEDIUM', null, 25,    6,    1, '10:00'],
  ['DE',  'de-ifo',          'IFO – Business Climate',                    'economicActivity', 'MEDIUM', null, 87.5,  0.8,  1, '09:00',           ['revises']],
  ['DE',  'de-cpi',          'Consumer Price Index (YoY)',                'inflation',        'MEDIUM', '%',  2.1,   0.1,  1, '13:00'],
  ['DE',  'de-pmi',          'HCOB Flash Manufacturing PMI',              'economicActivity', 'MEDIUM', null, 46.5,  1,    1, '08:30'],
  ['UK',  'uk-cpi',          'Consumer Price Index (YoY)',                'inflation',        'HIGH',   '%',  3.6,   0.1,  1, '07:00'],
  ['UK',  'uk-boe',          'BoE Interest Rate Decision',                'interestRates',    'HIGH',   '%',  4,     0,    2, 'meeting 12:00'],
  ['UK',  'uk-gdp',          'Gross Domestic Product (MoM)',              'economicActivity', 'MEDIUM', '%',  0.1,   0.2,  1, '07:00',           ['revises']],
  ['UK',  'uk-claimant',     'Claimant Count Change',                     'labor',            'MEDIUM', 'K',  20,    12,   1, '07:00',           ['revises', 'inverted']],
  ['UK',  'uk-retail',       'Retail Sales (MoM)',                        'consumption',      'MEDIUM', '%',  0.2,   0.5,  1, '07:00',           ['revises']],
  ['JP',  'jp-boj',          'BoJ Interest Rate Decision',                'interestRates',    'HIGH',   '%',  0.5,   0,    2, 'meeting 03:00'],
  ['JP',  'jp-tankan',       'Tankan Large Manufacturing Index',          'economicActivity', 'MEDIUM', null, 13,    2,    0, 'quarterly 23:50'],
  ['JP',  'jp-cpi',          'National CPI ex Fresh Food (YoY)',          'inflation',        'MEDIUM', '%',  2.9,   0.1,  1, '23:30'],
  ['JP',  'jp-trade',        'Merchandise Trade Balance Total',           'capitalFlows',     'LOW',    '¥B', -150,  120,  1, '23:50',           ['revises']],
  ['CN',  'cn-lpr',          'PBoC Loan Prime Rate (1Y)',                 'interestRates',    'MEDIUM', '%',  3,     0,    2, '01:15'],
  ['CN',  'cn-pmi',          'NBS Manufacturing PMI',                     'economicActivity', 'HIGH',   null, 49.6,  0.4,  1, '01:30'],
  ['CN',  'cn-cpi',          'Consumer Price Index (YoY)',                'inflation',        'MEDIUM', '%',  0.1,   0.2,  1, '01:30'],
  ['CN',  'cn-trade',        'Trade Balance USD',                         'capitalFlows',     'MEDIUM', '$B', 95,    8,    1, '03:00'],
  ['CA',  'ca-boc',          'BoC Interest Rate Decision',                'interestRates',    'HIGH',   '%',  2.25,  0,    2, 'meeting 14:45'],
  ['CA',  'ca-employment',   'Net Change in Employment',                  'labor',            'HIGH',   'K',  20,    25,   1, '13:30'],
  ['CA',  'ca-cpi',          'Consumer Price Index (YoY)',                'inflation',        'HIGH',   '%',  2.2,   0.1,  1, '13:30'],
  ['AU',  'au-rba',          'RBA Interest Rate Decision',                'interestRates',    'HIGH',   '%',  3.6,   0,    2, 'meeting 03:30'],
  ['AU',  'au-employment',   'Employment Change s.a.',                    'labor',            'HIGH',   'K',  25,    15,   1, '00:30',           ['revises']],
  ['AU',  'au-cpi',          'Monthly Consumer Price Index (YoY)',        'inflation',        'MEDIUM', '%',  3.2,   0.2,  1, '00:30'],
  ['NZ',  'nz-rbnz',         'RBNZ Interest Rate Decision',               'interestRates',    'HIGH',   '%',  2.5,   0,    2, 'meeting 01:00'],
  ['NZ',  'nz-gdt',          'GDT Price Index',                           'economicActivity', 'LOW',    '%',  0.5,   1.5,  1, 'Wed 13:00'],
  ['CH',  'ch-snb',          'SNB Interest Rate Decision',                'interestRates',    'HIGH',   '%',  0,     0,    2, 'meeting 08:30'],
  ['CH',  'ch-cpi',          'Consumer Price Index (YoY)',                'inflation',        'MEDIUM', '%',  0.2,   0.1,  1, '07:30'],
  ['CH',  'ch-kof',          'KOF Leading Indicator',                     'economicActivity', 'LOW',    null, 101,   1.5,  1, '08:00'],
  ['US',  'us-holiday',      'Thanksgiving Day',                          'holidays',         'NONE',   null, 0,     0,    0, 'meeting 00:00'],
  ['UK',  'uk-election',     'Autumn Budget Statement',                   'politics',         'MEDIUM', null, 0,     0,    0, 'meeting 12:30',   ['speech']],
  // Secondary monthly releases: lower impact, the calendar's daily texture
  ['US',  'us-secondary-0',  'Producer Price Index (MoM)',                'inflation',        'MEDIUM', '%',  0.2,   0.2,  1, '13:30'],
  ['US',  'us-secondary-1',  'Industrial Production (MoM)',               'economicActivity', 'MEDIUM', '%',  0.1,   0.3,  1, '14:15'],
  ['US',  'us-secondary-2',  'Michigan Consumer Sentiment Index',         'consumption',      'MEDIUM', null, 55,    2,    1, '15:00'],
  ['US',  'us-secondary-3',  'Durable Goods Orders',                      'economicActivity', 'MEDIUM', '%',  0.5,   1.5,  1, '13:30'],
  ['US',  'us-secondary-4',  'Existing Home Sales',                       'housing',          'LOW',    'M',  4,     0.1,  2, '15:00'],
  ['US',  'us-secondary-5',  'JOLTS Job Openings',                        'labor',            'MEDIUM', 'M',  7.4,   0.3,  3, '15:00'],
  ['US',  'us-secondary-6',  'ADP Employment Change',                     'labor',            'MEDIUM', 'K',  100,   40,   0, '13:15'],
  ['US',  'us-secondary-7',  'Building Permits',                          'housing',          'LOW',    'M',  1.4,   0.05, 3, '13:30'],
  ['EMU', 'emu-secondary-0', 'Unemployment Rate',                         'labor',            'LOW',    '%',  6.3,   0.1,  1, '10:00',           ['inverted']],
  ['EMU', 'emu-secondary-1', 'Retail Sales (MoM)',                        'consumption',      'LOW',    '%',  0.2,   0.4,  1, '10:00'],
  ['EMU', 'emu-secondary-2', 'Consumer Confidence',                       'consumption',      'LOW',    null, -15,   1,    1, '10:00'],
  ['EMU', 'emu-secondary-3', 'Industrial Production s.a. (MoM)',          'economicActivity', 'LOW',    '%',  0.2,   0.6,  1, '10:00'],
  ['EMU', 'emu-secondary-4', 'Sentix Investor Confidence',                'economicActivity', 'LOW',    null, -5,    3,    1, '10:00'],
  ['DE',  'de-secondary-0',  'Factory Orders s.a. (MoM)',                 'economicActivity', 'LOW',    '%',  0.5,   1.5,  1, '07:00'],
  ['DE',  'de-secondary-1',  'Unemployment Change',                       'labor',            'LOW',    'K',  10,    8,    1, '07:00',           ['inverted']],
  ['DE',  'de-secondary-2',  'Retail Sales (MoM)',                        'consumption',      'LOW',    '%',  0.2,   0.8,  1, '07:00'],
  ['DE',  'de-secondary-3',  'Trade Balance s.a.',                        'capitalFlows',     'LOW',    '€B', 16,    1.5,  1, '07:00'],
  ['UK',  'uk-secondary-0',  'Manufacturing Production (MoM)',            'economicActivity', 'LOW',    '%',  0.1,   0.5,  1, '07:00'],
  ['UK',  'uk-secondary-1',  'S&P Global Services PMI',                   'economicActivity', 'MEDIUM', null, 51,    0.8,  1, '07:00'],
  ['UK',  'uk-secondary-2',  'Average Earnings Including Bonus (3Mo/Yr)', 'labor',            'MEDIUM', '%',  4.8,   0.2,  1, '07:00'],
  ['UK',  'uk-secondary-3',  'Nationwide Housing Prices (MoM)',           'housing',          'LOW',    '%',  0.2,   0.3,  1, '07:00'],
  ['JP',  'jp-secondary-0',  'Industrial Production (MoM)',               'economicActivity', 'LOW',    '%',  0.3,   1,    1, '23:30'],
  ['JP',  'jp-secondary-1',  'Unemployment Rate',                         'labor',            'LOW',    '%',  2.5,   0.1,  1, '23:30',           ['inverted']],
  ['JP',  'jp-secondary-2',  'Household Spending (YoY)',                  'consumption',      'LOW',    '%',  0.5,   1.5,  1, '23:30'],
  ['JP',  'jp-secondary-3',  'Tokyo CPI ex Fresh Food (YoY)',             'inflation',        'MEDIUM', '%',  2.7,   0.1,  1, '23:30'],
  ['CN',  'cn-secondary-0',  'Industrial Production (YoY)',               'economicActivity', 'MEDIUM', '%',  5.5,   0.4,  1, '02:00'],
  ['CN',  'cn-secondary-1',  'Retail Sales (YoY)',                        'consumption',      'MEDIUM', '%',  3.5,   0.6,  1, '02:00'],
  ['CN',  'cn-secondary-2',  'RatingDog Manufacturing PMI',               'economicActivity', 'MEDIUM', null, 50.5,  0.6,  1, '01:45'],
  ['CA',  'ca-secondary-0',  'Retail Sales (MoM)',                        'consumption',      'MEDIUM', '%',  0.3,   0.5,  1, '13:30'],
  ['CA',  'ca-secondary-1',  'Gross Domestic Product (MoM)',              'economicActivity', 'MEDIUM', '%',  0.1,   0.2,  1, '13:30'],
  ['CA',  'ca-secondary-2',  'Ivey PMI s.a.',                             'economicActivity', 'LOW',    null, 52,    2,    1, '15:00'],
  ['AU',  'au-secondary-0',  'Household Spending (MoM)',                  'consumption',      'MEDIUM', '%',  0.3,   0.4,  1, '00:30'],
  ['AU',  'au-secondary-1',  'Trade Balance',                             'capitalFlows',     'LOW',    'B',  5,     1,    1, '00:30'],
  ['AU',  'au-secondary-2',  'Westpac Consumer Confidence',               'consumption',      'LOW',    '%',  0.5,   3,    1, '00:30'],
  ['NZ',  'nz-secondary-0',  'Trade Balance NZD',                         'capitalFlows',     'LOW',    'M',  -500,  300,  0, '21:45'],
  ['NZ',  'nz-secondary-1',  'Business NZ PMI',                           'economicActivity', 'LOW',    null, 49,    1.5,  1, '21:45'],
  ['CH',  'ch-secondary-0',  'Unemployment Rate s.a.',                    'labor',            'LOW',    '%',  2.8,   0.1,  1, '07:30',           ['inverted']],
  ['CH',  'ch-secondary-1',  'Trade Balance (CHF)',                       'capitalFlows',     'LOW',    'M',  4000,  800,  0, '07:30'],
  ['CH',  'ch-secondary-2',  'procure.ch Manufacturing PMI',              'economicActivity', 'LOW',    null, 48.5,  1,    1, '07:30'],
  // Weekly releases: claims, energy stocks, auctions, positioning, flows
  ['US',  'us-mba',          'MBA Mortgage Applications (WoW)',           'housing',          'LOW',    '%',  0.5,   4,    1, 'Wed 12:00'],
  ['US',  'us-redbook',      'Redbook Index (YoY)',                       'consumption',      'LOW',    '%',  5.5,   0.5,  1, 'Tue 13:55'],
  ['US',  'us-rigs',         'Baker Hughes US Oil Rig Count',             'energy',           'LOW',    null, 420,   4,    0, 'Fri 18:00'],
  ['US',  'us-natgas',       'EIA Natural Gas Storage Change',            'energy',           'LOW',    null, 20,    15,   0, 'Thu 15:30'],
  ['US',  'us-4w-bill',      '4-Week Bill Auction',                       'bondAuctions',     'NONE',   '%',  4.1,   0.02, 3, 'Thu 15:30'],
  // Central bankers who speak now and then (ad hoc, no values)
  ['US',  'us-speaker-0',    "Fed's Waller speech",                       'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 15:00',     ['speech']],
  ['US',  'us-speaker-1',    "Fed's Williams speech",                     'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 17:00',     ['speech']],
  ['US',  'us-speaker-2',    "Fed's Bowman speech",                       'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 14:15',     ['speech']],
  ['US',  'us-speaker-3',    "Fed's Goolsbee speech",                     'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 16:00',     ['speech']],
  ['US',  'us-speaker-4',    "Fed's Logan speech",                        'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 19:00',     ['speech']],
  ['EMU', 'emu-speaker-5',   "ECB's Schnabel speech",                     'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 08:30',     ['speech']],
  ['EMU', 'emu-speaker-6',   "ECB's Lane speech",                         'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 12:00',     ['speech']],
  ['EMU', 'emu-speaker-7',   "ECB's Vujčić speech",                       'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 09:30',     ['speech']],
  ['DE',  'de-speaker-8',    "Bundesbank's Nagel speech",                 'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 11:00',     ['speech']],
  ['UK',  'uk-speaker-9',    "BoE's Governor Bailey speech",              'centralBanks',     'HIGH',   null, 0,     0,    0, 'adhoc 13:00',     ['speech']],
  ['UK',  'uk-speaker-10',   "BoE's Pill speech",                         'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 10:00',     ['speech']],
  ['JP',  'jp-speaker-11',   "BoJ's Governor Ueda speech",                'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 05:00',     ['speech']],
  ['CA',  'ca-speaker-12',   "BoC's Governor Macklem speech",             'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 16:30',     ['speech']],
  ['AU',  'au-speaker-13',   "RBA's Governor Bullock speech",             'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 03:00',     ['speech']],
  ['NZ',  'nz-speaker-14',   "RBNZ's Hawkesby speech",                    'centralBanks',     'LOW',    null, 0,     0,    0, 'adhoc 20:00',     ['speech']],
  ['CH',  'ch-speaker-15',   "SNB's Chairman Schlegel speech",            'centralBanks',     'MEDIUM', null, 0,     0,    0, 'adhoc 08:00',     ['speech']],
  // More weekly releases: positioning, auctions, flows
  ['US',  'us-weekly-0',     'Continuing Jobless Claims',                 'labor',            'LOW',    'K',  1870,  25,   0, 'Thu 13:30',       ['inverted']],
  ['US',  'us-weekly-1',     'API Weekly Crude Oil Stock',                'energy',           'LOW',    'M',  -1,    3,    3, 'Tue 21:30', ['inverted']],
  ['US',  'us-weekly-2',     '3-Month Bill Auction',                      'bondAuctions',     'NONE',   '%',  4.2,   0.02, 3, 'Mon 16:30'],
  ['US',  'us-weekly-3',     '6-Month Bill Auction',                      'bondAuctions',     'NONE',   '%',  4.1,   0.02, 3, 'Mon 16:30'],
  ['US',  'us-weekly-4',     "Fed's Balance Sheet",                       'centralBanks',     'LOW',    '$B', 6650,  15,   0, 'Thu 21:30', ['inverted']],
  ['US',  'us-weekly-5',     'CFTC Oil NC Net Positions',                 'capitalFlows',     'LOW',    'K',  180,   15,   1, 'Fri 20:30',       ['noConsensus']],
  ['US',  'us-weekly-6',     'CFTC Gold NC Net Positions',                'capitalFlows',     'LOW',    'K',  250,   12,   1, 'Fri 20:30',       ['noConsensus']],
  ['US',  'us-weekly-7',     'CFTC S&P 500 NC Net Positions',             'capitalFlows',     'LOW',    'K',  -90,   20,   1, 'Fri 20:30',       ['noConsensus']],
  ['EMU', 'emu-weekly-8',    'CFTC EUR NC Net Positions',                 'capitalFlows',     'LOW',    'K',  60,    8,    1, 'Fri 20:30',       ['noConsensus']],
  ['UK',  'uk-weekly-9',     'CFTC GBP NC Net Positions',                 'capitalFlows',     'LOW',    'K',  20,    6,    1, 'Fri 20:30',       ['noConsensus']],
  ['JP',  'jp-weekly-10',    'CFTC JPY NC Net Positions',                 'capitalFlows',     'LOW',    'K',  -40,   8,    1, 'Fri 20:30',       ['noConsensus']],
  ['AU',  'au-weekly-11',    'CFTC AUD NC Net Positions',                 'capitalFlows',     'LOW',    'K',  -50,   5,    1, 'Fri 20:30',       ['noConsensus']],
  ['CA',  'ca-weekly-12',    'CFTC CAD NC Net Positions',                 'capitalFlows',     'LOW',    'K',  -120,  8,    1, 'Fri 20:30',       ['noConsensus']],
  ['CH',  'ch-weekly-13',    'CFTC CHF NC Net Positions',                 'capitalFlows',     'LOW',    'K',  -30,   4,    1, 'Fri 20:30',       ['noConsensus']],
  ['NZ',  'nz-weekly-14',    'CFTC NZD NC Net Positions',                 'capitalFlows',     'LOW',    'K',  -15,   3,    1, 'Fri 20:30',       ['noConsensus']],
  ['JP',  'jp-weekly-15',    'Foreign Bond Investment',                   'capitalFlows',     'LOW',    '¥B', 300,   500,  1, 'Thu 23:50', ['inverted']],
  ['JP',  'jp-weekly-16',    'Foreign Investment in Japan Stocks',        'capitalFlows',     'LOW',    '¥B', 150,   400,  1, 'Thu 23:50'],
  ['DE',  'de-weekly-17',    '10-y Bund Auction',                         'bondAuctions',     'LOW',    '%',  2.6,   0.05, 2, 'Wed 10:40'],
  ['UK',  'uk-weekly-18',    '10-y Bond Auction',                         'bondAuctions',     'LOW',    '%',  4.5,   0.05, 3, 'Tue 10:00'],
  ['CH',  'ch-weekly-19',    'SNB Total Sight Deposits',                  'centralBanks',     'LOW',    'B',  460,   3,    1, 'Mon 09:00', ['inverted']],
  // The rest of each currency's headline set (docs/demo-calendar.md): the cores, earnings
  // and unemployment printed with their headline release, the flash PMIs about the 23rd
  ['US',  'us-core-cpi-mm',  'Core Consumer Price Index (MoM)',           'inflation',        'HIGH',   '%',  0.3,   0.1,  1, '13:30'],
  ['US',  'us-core-cpi-yy',  'Core Consumer Price Index (YoY)',           'inflation',        'HIGH',   '%',  3.0,   0.1,  1, '13:30'],
  ['US',  'us-ahe-mm',       'Average Hourly Earnings (MoM)',             'labor',            'HIGH',   '%',  0.3,   0.1,  1, '13:30',           ['revises']],
  ['US',  'us-core-retail',  'Retail Sales ex Autos (MoM)',               'consumption',      'HIGH',   '%',  0.3,   0.3,  1, '13:30',           ['revises']],
  ['US',  'us-flash-mfg',    'S&P Global Flash Manufacturing PMI',        'economicActivity', 'MEDIUM', null, 52.0,  0.8,  1, '14:45'],
  ['US',  'us-flash-svc',    'S&P Global Flash Services PMI',             'economicActivity', 'MEDIUM', null, 54.0,  0.8,  1, '14:45'],
  ['EMU', 'emu-core-hicp',   'Core HICP (YoY)',                           'inflation',        'HIGH',   '%',  2.4,   0.1,  1, '10:00'],
  ['EMU', 'emu-flash-mfg',   'HCOB Flash Manufacturing PMI',              'economicActivity', 'MEDIUM', null, 49.6,  0.6,  1, '09:00'],
  ['EMU', 'emu-flash-svc',   'HCOB Flash Services PMI',                   'economicActivity', 'MEDIUM', null, 53.0,  0.6,  1, '09:00'],
  ['DE',  'de-flash-svc',    'HCOB Flash Services PMI',                   'economicActivity', 'MEDIUM', null, 53.5,  0.8,  1, '08:30'],
  ['FR',  'fr-flash-mfg',    'HCOB Flash Manufacturing PMI',              'economicActivity', 'LOW',    null, 48.0,  0.8,  1, '08:15'],
  ['FR',  'fr-flash-svc',    'HCOB Flash Services PMI',                   'economicActivity', 'LOW',    null, 50.0,  0.8,  1, '08:15'],
  ['UK',  'uk-core-cpi',     'Core Consumer Price Index (YoY)',           'inflation',        'HIGH',   '%',  3.4,   0.1,  1, '07:00'],
  ['UK',  'uk-unemployment', 'ILO Unemployment Rate (3M)',                'labor',            'MEDIUM', '%',  5.0,   0.1,  1, '07:00',           ['inverted']],
  ['UK',  'uk-flash-mfg',    'S&P Global Flash Manufacturing PMI',        'economicActivity', 'MEDIUM', null, 49.5,  0.8,  1, '09:30'],
  ['UK',  'uk-flash-svc',    'S&P Global Flash Services PMI',             'economicActivity', 'MEDIUM', null, 51.0,  0.8,  1, '09:30'],
  ['JP',  'jp-flash-mfg',    'S&P Global Flash Manufacturing PMI',        'economicActivity', 'LOW',    null, 49.0,  0.6,  1, '00:30'],
  ['JP',  'jp-flash-svc',    'S&P Global Flash Services PMI',             'economicActivity', 'LOW',    null, 52.5,  0.6,  1, '00:30'],
  ['CA',  'ca-unemployment', 'Unemployment Rate',                         'labor',            'HIGH',   '%',  6.9,   0.1,  1, '13:30',           ['inverted']],
  ['CA',  'ca-core-cpi',     'BoC Core Consumer Price Index (YoY)',       'inflation',        'MEDIUM', '%',  2.8,   0.1,  1, '13:30'],
  ['CA',  'ca-core-retail',  'Retail Sales ex Autos (MoM)',               'consumption',      'MEDIUM', '%',  0.3,   0.5,  1, '13:30',           ['revises']],
  ['AU',  'au-unemployment', 'Unemployment Rate s.a.',                    'labor',            'HIGH',   '%',  4.3,   0.1,  1, '00:30',           ['inverted']],
  ['AU',  'au-core-cpi',     'Monthly CPI Trimmed Mean (YoY)',            'inflation',        'MEDIUM', '%',  3.0,   0.2,  1, '00:30'],
  ['AU',  'au-flash-mfg',    'S&P Global Flash Manufacturing PMI',        'economicActivity', 'LOW',    null, 50.5,  0.6,  1, '22:00'],
  ['AU',  'au-flash-svc',    'S&P Global Flash Services PMI',             'economicActivity', 'LOW',    null, 52.0,  0.6,  1, '22:00'],
  ['NZ',  'nz-cpi',          'Consumer Price Index (QoQ)',                'inflation',        'HIGH',   '%',  0.6,   0.1,  1, 'quarterly 21:45'],
  ['NZ',  'nz-unemployment', 'Unemployment Rate',                         'labor',            'HIGH',   '%',  5.3,   0.1,  1, 'quarterly 21:45', ['inverted']],
  ['NZ',  'nz-gdp',          'Gross Domestic Product (QoQ)',              'economicActivity', 'HIGH',   '%',  0.3,   0.3,  1, 'quarterly 21:45', ['revises']],
  ['CH',  'ch-core-cpi',     'Core Consumer Price Index (YoY)',           'inflation',        'MEDIUM', '%',  0.5,   0.1,  1, '07:30'],
  ['CN',  'cn-ppi',          'Producer Price Index (YoY)',                'inflation',        'MEDIUM', '%',  -2.2,  0.3,  1, '01:30'],
  ['CN',  'cn-gdp',          'Gross Domestic Product (YoY)',              'economicActivity', 'HIGH',   '%',  4.8,   0.2,  1, 'quarterly 02:00'],
];

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

/** "Thu 13:30" → weekly on Thursday at 13:30; a bad row stops the simulator at load. */
function parseWhen(when: When, key: string): Pick<Indicator, 'frequency' | 'time' | 'weekday'> {
  const m = /^(?:(Mon|Tue|Wed|Thu|Fri|quarterly|meeting|adhoc) )?([01]\d|2[0-3]):([0-5]\d)$/.exec(
    when,
  );
  if (!m) throw new Error(`indicator ${key}: bad time "${when}" (want "HH:MM", "Thu HH:MM", …)`);
  const time = `${m[2]}:${m[3]}`;
  const day = WEEKDAYS.indexOf(m[1] ?? '');
  if (day >= 0) return { frequency: 'weekly', weekday: day + 1, time };
  return { frequency: (m[1] as Frequency | undefined) ?? 'monthly', time };
}

function unitOf(figure: Figure): Pick<Indicator, 'unit' | 'potency'> {
  if (figure === 'K' || figure === 'M' || figure === 'B') return { unit: null, potency: figure };
  if (figure !== null && figure.endsWith('B')) return { unit: figure.slice(0, -1), potency: 'B' };
  return { unit: figure, potency: 'ZERO' };
}

function indicatorOf(row: Row): Indicator {
  const [country, key, name, category, volatility, figure, level, spread, decimals, when] = row;
  const currency = CURRENCY[country];
  if (!currency) throw new Error(`indicator ${key}: no currency for country ${country}`);
  const flags = Object.fromEntries((row[10] ?? []).map((f) => [f, true])) as Partial<
    Record<Flag, true>
  >;
  const base = { key, name, country, currency, category, volatility, level, spread, decimals };
  const ind = { ...base, ...unitOf(figure), ...parseWhen(when, key), ...flags, description: '' };
  return { ...ind, description: descriptionOf(ind) };
}

export const INDICATORS: Indicator[] = ROWS.map(indicatorOf);

const duplicate = INDICATORS.find((x, n) => INDICATORS.findIndex((y) => y.key === x.key) !== n);
if (duplicate) throw new Error(`indicator ${duplicate.key} is in the table twice`);
