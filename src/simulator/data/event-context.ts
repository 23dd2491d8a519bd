/**
 * Context for the demo's headline events, as a trader's calendar gives it: who publishes
 * the figure, what it measures, how it usually moves the currency and why traders watch
 * it. Written for the demo, not copied from any calendar; descriptions.ts turns it into
 * the event's description, one "Label: text" line each, which the app's detail lays out.
 */

export interface EventContext {
  source: string;
  measures: string;
  /** Why a desk watches it. */
  why: string;
  /**
   * How a surprise usually moves the currency; by default from the figure's direction
   * (actual above forecast is good, below for joblessness).
   */
  effect?: string;
}

const BLS = 'U.S. Bureau of Labor Statistics (BLS)';
const CENSUS = 'U.S. Census Bureau';
const BEA = 'U.S. Bureau of Economic Analysis (BEA)';
const ONS = 'Office for National Statistics (ONS)';
const STATCAN = 'Statistics Canada';
const ABS = 'Australian Bureau of Statistics (ABS)';
const STATSNZ = 'Stats NZ';
const NBS = 'National Bureau of Statistics of China (NBS)';
const FSO = 'Swiss Federal Statistical Office (FSO)';
const HAWKISH = 'Tone more hawkish than expected = good for currency';

const decision = (bank: string, why: string): EventContext => ({
  source: bank,
  measures: `The policy rate ${bank} sets at its scheduled meeting, with its statement.`,
  effect: 'Rate above forecast, or a more hawkish statement = good for currency',
  why,
});

const flashPmi = (agency: string, region: string, sector: string): EventContext => ({
  source: agency,
  measures: `A survey of purchasing managers in ${region}'s ${sector} sector, taken in the first half of the month; above 50 means activity grew.`,
  why: `The first reading of the month's ${sector} activity, weeks before the official figures; a move across 50 shifts growth expectations.`,
});

const coreCpi = (source: string, place: string, gauge: string): EventContext => ({
  source,
  measures: `The change in ${place} consumer prices ${gauge}, leaving out the most volatile items.`,
  why: 'The central bank sets rates on underlying inflation; the core shows the trend the headline hides behind food and energy.',
});

export const CONTEXT: Record<string, EventContext> = {
  // United States
  'us-nfp': {
    source: BLS,
    measures:
      'The change in the number of people on payrolls outside farming, from a survey of employers.',
    why: 'The broadest monthly read of US hiring, first Friday of the month; it moves the dollar, yields and stocks more than almost any release.',
  },
  'us-unemployment': {
    source: BLS,
    measures:
      'The share of the labour force without a job and looking for one, from a survey of households.',
    why: "Half of the Fed's mandate; a rise signals slack and earlier rate cuts.",
  },
  'us-ahe-mm': {
    source: BLS,
    measures:
      'The change in the average hourly pay of private-sector employees, in the jobs report.',
    why: 'Wage growth feeds services inflation; a hot print can outweigh the payrolls headline.',
  },
  'us-cpi-mm': {
    source: BLS,
    measures:
      'The monthly change in the prices urban consumers pay for a basket of goods and services.',
    why: 'The first full read of US inflation each month; it resets the path the market prices for the Fed.',
  },
  'us-cpi-yy': {
    source: BLS,
    measures: 'Consumer prices against the same month a year earlier.',
    why: 'The inflation rate headlines quote; read beside the monthly change and the core.',
  },
  'us-core-cpi-mm': coreCpi(BLS, 'US', 'from the month before'),
  'us-core-cpi-yy': coreCpi(BLS, 'US', 'against a year earlier'),
  'us-core-pce': {
    source: BEA,
    measures: 'The monthly change in prices of what households consume, without food and energy.',
    why: "The Fed's preferred inflation gauge, the one its 2% target refers to; CPI and PPI usually let analysts guess it closely.",
  },
  'us-gdp': {
    source: BEA,
    measures: 'The annualized quarterly change in the value of all goods and services produced.',
    why: 'The broadest measure of the economy; the advance estimate moves markets, the later ones less.',
  },
  'us-retail': {
    source: CENSUS,
    measures: 'The monthly change in the value of sales at retailers and food services.',
    why: 'Consumer spending is about two thirds of the economy; this is its first monthly read.',
  },
  'us-core-retail': {
    source: CENSUS,
    measures:
      'Retail sales without motor vehicles and parts, whose prices and volumes swing the total.',
    why: 'The steadier signal of consumer demand inside the retail release.',
  },
  'us-claims': {
    source: 'U.S. Department of Labor',
    measures:
      'The number of people filing for unemployment insurance for the first time in the past week.',
    why: 'The most timely labour-market data; a run of rising claims is an early sign of layoffs.',
  },
  'us-ism-mfg': {
    source: 'Institute for Supply Management (ISM)',
    measures: 'A survey of purchasing managers at US manufacturers; above 50 means expansion.',
    why: 'Out on the first business day, it sets the tone for the month; its prices and employment parts are read too.',
  },
  'us-ism-svc': {
    source: 'Institute for Supply Management (ISM)',
    measures: 'A survey of purchasing managers at US services firms; above 50 means expansion.',
    why: 'Services are most of the US economy; its prices-paid index is watched for sticky inflation.',
  },
  'us-flash-mfg': flashPmi('S&P Global', 'the US', 'manufacturing'),
  'us-flash-svc': flashPmi('S&P Global', 'the US', 'services'),
  'us-secondary-0': {
    source: BLS,
    measures: 'The monthly change in the prices domestic producers get for their output.',
    why: 'Pipeline inflation; some of its parts feed straight into the PCE estimate.',
  },
  'us-fed': decision(
    'the Federal Reserve (FOMC)',
    'The federal funds rate prices every dollar asset; the statement and the dot plot reset rate expectations.',
  ),
  'us-powell': {
    source: 'the Federal Reserve',
    measures: "The Chair's prepared remarks and answers after the FOMC decision.",
    effect: HAWKISH,
    why: 'The guidance on the next meetings often moves markets more than the decision itself.',
  },
  // Euro area
  'emu-hicp': {
    source: 'Eurostat',
    measures:
      'The flash estimate of euro-area consumer prices against a year earlier, on harmonized methods.',
    why: "The ECB's target is 2% on this measure.",
  },
  'emu-core-hicp': coreCpi(
    'Eurostat',
    'euro-area',
    'against a year earlier, without energy, food, alcohol and tobacco',
  ),
  'emu-gdp': {
    source: 'Eurostat',
    measures: "The quarterly change in the euro area's output, seasonally adjusted.",
    why: 'The broadest read of the euro-area economy; the flash estimate moves the euro most.',
  },
  'emu-pmi': flashPmi('S&P Global for HCOB', 'the euro area', 'private'),
  'emu-flash-mfg': flashPmi('S&P Global for HCOB', 'the euro area', 'manufacturing'),
  'emu-flash-svc': flashPmi('S&P Global for HCOB', 'the euro area', 'services'),
  'de-pmi': flashPmi('S&P Global for HCOB', 'Germany', 'manufacturing'),
  'de-flash-svc': flashPmi('S&P Global for HCOB', 'Germany', 'services'),
  'fr-flash-mfg': flashPmi('S&P Global for HCOB', 'France', 'manufacturing'),
  'fr-flash-svc': flashPmi('S&P Global for HCOB', 'France', 'services'),
  'de-ifo': {
    source: 'ifo Institute',
    measures:
      'A survey of about 9,000 German firms on their business now and over the next six months.',
    why: "Germany is the euro area's largest economy; Ifo is the most watched read of its business mood.",
  },
  'de-zew': {
    source: 'ZEW – Leibniz Centre for European Economic Research',
    measures:
      "Financial analysts' expectations for the German economy over six months (optimists minus pessimists).",
    why: 'The first sentiment survey of the month; it turns before the hard data.',
  },
  'emu-ecb': decision(
    'the European Central Bank (ECB)',
    "The ECB's rates drive the euro's yield against the dollar, the pound and the franc.",
  ),
  'emu-lagarde': {
    source: 'the European Central Bank (ECB)',
    measures: "The President's statement and answers after the decision.",
    effect: HAWKISH,
    why: 'How the Governing Council reads the data and what it signals for the next meetings.',
  },
  // United Kingdom
  'uk-cpi': {
    source: ONS,
    measures: 'UK consumer prices against a year earlier.',
    why: "The Bank of England's 2% target is on this measure.",
  },
  'uk-core-cpi': coreCpi(
    ONS,
    'UK',
    'against a year earlier, without energy, food, alcohol and tobacco',
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
  'uk-flash-mfg': flashPmi('S&P Global', 'the UK', 'manufacturing'),
  'uk-flash-svc': flashPmi('S&P Global', 'the UK', 'services'),
  'uk-boe': decision(
    'the Bank of England (MPC)',
    "Bank Rate and the committee's vote split move the pound; a split vote signals the next step.",
  ),
  'uk-speaker-9': {
    source: 'the Bank of England',
    measures: 'A speech by the Governor, who chairs the Monetary Policy Committee.',
    effect: HAWKISH,
    why: "The Governor's view of inflation and wages often previews the committee's next vote.",
  },
  // Japan
  'jp-cpi': {
    source: 'Statistics Bureau of Japan',
    measures: 'National consumer prices excluding fresh food, against a year earlier.',
    why: 'The Bank of Japan judges its 2% target on this core measure.',
  },
  'jp-secondary-3': {
    source: 'Statistics Bureau of Japan',
    measures: 'Consumer prices in Tokyo excluding fresh food, against a year earlier.',
    why: 'Out weeks before the national figure, it is the first read of Japanese inflation each month.',
  },
  'jp-tankan': {
    source: 'the Bank of Japan',
    measures:
      "Large manufacturers' view of business conditions (good minus bad), surveyed each quarter.",
    why: "The central bank's own survey; it feeds the Bank of Japan's next decisions.",
  },
  'jp-flash-mfg': flashPmi('S&P Global', 'Japan', 'manufacturing'),
  'jp-flash-svc': flashPmi('S&P Global', 'Japan', 'services'),
  'jp-boj': decision(
    'the Bank of Japan',
    'Each step away from near-zero rates changes the yield gap that drives the yen.',
  ),
  // Canada
  'ca-employment': {
    source: STATCAN,
    measures: 'The change in the number of people employed, from the Labour Force Survey.',
    why: 'Often out the same morning as US payrolls; the two together move USD/CAD.',
  },
  'ca-unemployment': {
    source: STATCAN,
    measures: 'The share of the labour force without a job and looking for one.',
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
  ),
  'ca-secondary-0': {
    source: STATCAN,
    measures: 'The monthly change in the value of retail sales.',
    why: 'The main monthly read of Canadian consumer spending.',
  },
  'ca-core-retail': {
    source: STATCAN,
    measures: 'Retail sales without motor vehicle and parts dealers.',
    why: 'The steadier signal of consumer demand inside the retail release.',
  },
  'ca-boc': decision(
    'the Bank of Canada',
    'The rate gap with the Fed is the main driver of USD/CAD beside oil.',
  ),
  // Australia
  'au-employment': {
    source: ABS,
    measures: 'The change in the number of people employed, seasonally adjusted.',
    why: 'The RBA reads the labour market closely; a big miss moves the Australian dollar at once.',
  },
  'au-unemployment': {
    source: ABS,
    measures: 'The share of the labour force without a job and looking for one.',
    why: 'The RBA judges full employment on it.',
  },
  'au-cpi': {
    source: ABS,
    measures: 'The monthly CPI indicator: consumer prices against a year earlier.',
    why: 'A monthly read of inflation between the quarterly releases the RBA targets.',
  },
  'au-core-cpi': coreCpi(ABS, 'Australian', 'against a year earlier, by the trimmed mean'),
  'au-flash-mfg': flashPmi('S&P Global', 'Australia', 'manufacturing'),
  'au-flash-svc': flashPmi('S&P Global', 'Australia', 'services'),
  'au-rba': decision(
    'the Reserve Bank of Australia (RBA)',
    "The cash rate and the statement set the Australian dollar's yield appeal.",
  ),
  // New Zealand
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
  'nz-gdt': {
    source: 'Global Dairy Trade (Fonterra)',
    measures: 'The change in the average price at the twice-monthly auction of dairy products.',
    why: "Dairy is New Zealand's largest export; prices feed farm incomes and the kiwi.",
  },
  'nz-rbnz': decision(
    'the Reserve Bank of New Zealand (RBNZ)',
    'The Official Cash Rate and the rate track in the statement move the kiwi.',
  ),
  // Switzerland
  'ch-cpi': {
    source: FSO,
    measures: 'Swiss consumer prices against a year earlier.',
    why: 'The SNB aims for inflation between 0 and 2%; a print near zero keeps negative rates on the table.',
  },
  'ch-core-cpi': coreCpi(
    FSO,
    'Swiss',
    'against a year earlier, without fresh and seasonal products, energy and fuel',
  ),
  'ch-kof': {
    source: 'KOF Swiss Economic Institute (ETH Zurich)',
    measures: 'A composite of indicators that tends to lead Swiss growth.',
    why: 'The timeliest read of where the Swiss economy is heading.',
  },
  'ch-snb': decision(
    'the Swiss National Bank (SNB)',
    "The SNB sets the franc's rate quarterly and may intervene in currency markets; its words on the franc move it.",
  ),
  // China
  'cn-cpi': {
    source: NBS,
    measures: 'Chinese consumer prices against a year earlier.',
    why: 'Low inflation in China points to weak demand and more easing; it moves the yuan and the Australian dollar.',
  },
  'cn-ppi': {
    source: NBS,
    measures: 'Prices Chinese factories get for their output, against a year earlier.',
    why: "China's factory prices are exported to the world; deflation here lowers inflation elsewhere.",
  },
  'cn-gdp': {
    source: NBS,
    measures: "China's output against the same quarter a year earlier.",
    why: "Set against the government's growth target; it moves the yuan, the Australian dollar and commodities.",
  },
  'cn-pmi': {
    source: NBS,
    measures:
      'A survey of purchasing managers at large Chinese manufacturers; above 50 means expansion.',
    why: 'The first official read of the month on Chinese industry.',
  },
  'cn-secondary-2': {
    source: 'S&P Global for Caixin',
    measures:
      'A survey of purchasing managers at Chinese manufacturers, smaller and private firms among them; above 50 means expansion.',
    why: 'A private check on the official PMI, with more of the export-oriented firms.',
  },
  'cn-lpr': {
    source: "the People's Bank of China (PBoC)",
    measures: 'The one-year Loan Prime Rate banks quote to their best customers, set monthly.',
    effect: 'Rate above forecast = good for currency',
    why: 'The benchmark for Chinese lending; a cut signals easing.',
  },
};
