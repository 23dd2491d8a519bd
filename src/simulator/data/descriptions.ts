/**
 * What each indicator of the demo is, as the event's description the service carries.
 * Indicators without their own text get a plain one from their kind.
 */
import type { Indicator } from './indicators.js';

const DESCRIPTIONS: Record<string, string> = {
  'us-nfp':
    'The Nonfarm Payrolls release presents the number of new jobs created during the previous month in all non-agricultural businesses.',
  'us-unemployment': 'The share of the labour force that is jobless and actively looking for work.',
  'us-cpi-mm':
    'Monthly change in the prices a typical urban consumer pays for a basket of goods and services.',
  'us-cpi-yy': 'Year-on-year change in consumer prices.',
  'us-core-pce': 'The Fed’s preferred inflation gauge, excluding food and energy.',
  'us-gdp': 'Annualized quarterly growth of the US economy.',
  'us-ism-mfg':
    'A diffusion index of purchasing managers at US manufacturers; above 50 signals expansion.',
  'us-ism-svc': 'Business conditions in the US services sector.',
  'us-retail': 'Monthly change in the total receipts of US retail stores.',
  'us-claims': 'First-time filings for unemployment insurance in the past week.',
  'us-fed': 'The FOMC’s decision on the federal funds target range (upper bound).',
  'us-trade': 'Exports minus imports of goods and services.',
  'us-crude': 'Weekly change in US commercial crude inventories.',
  'us-housing': 'New residential construction projects begun in the month (annualized).',
  'us-powell': 'The Chair of the Federal Reserve explains the FOMC decision to the press.',
  'us-10y': 'Average yield at the auction of 10-year Treasury notes.',
  'emu-hicp': 'Euro-area consumer inflation, year on year (flash).',
  'emu-ecb': 'The ECB Governing Council’s decision on its main refinancing rate.',
  'emu-gdp': 'Quarterly growth of the euro-area economy.',
  'emu-pmi': 'Business activity across euro-area manufacturing and services.',
  'emu-lagarde': 'The President of the European Central Bank explains the decision to the press.',
  'de-zew': 'Financial analysts’ six-month outlook for the German economy.',
  'de-ifo': 'The ifo Institute’s survey of German business sentiment.',
  'de-cpi': 'German consumer inflation, preliminary.',
  'de-pmi': 'Purchasing managers at German manufacturers.',
  'uk-cpi': 'UK consumer inflation, year on year.',
  'uk-boe': 'The Bank of England’s Monetary Policy Committee decision on Bank Rate.',
  'uk-gdp': 'Monthly growth of UK output.',
  'uk-claimant': 'Change in the number of people claiming unemployment-related benefits.',
  'uk-retail': 'Monthly change in the volume of UK retail sales.',
  'jp-boj': 'The Bank of Japan’s policy rate decision.',
  'jp-tankan': 'The Bank of Japan’s survey of large manufacturers’ sentiment.',
  'jp-cpi': 'Japanese core consumer inflation.',
  'jp-trade': 'Japan’s exports minus imports of goods.',
  'cn-lpr': 'The benchmark one-year lending rate set monthly.',
  'cn-pmi': 'Official survey of Chinese manufacturers.',
  'cn-cpi': 'Chinese consumer inflation.',
  'cn-trade': 'China’s trade surplus in US dollars.',
  'ca-boc': 'The Bank of Canada’s overnight rate target.',
  'ca-employment': 'Monthly change in the number of employed people in Canada.',
  'ca-cpi': 'Canadian consumer inflation.',
  'au-rba': 'The Reserve Bank of Australia’s cash rate target.',
  'au-employment': 'Monthly change in Australian employment.',
  'au-cpi': 'Australian monthly inflation indicator.',
  'nz-rbnz': 'The Reserve Bank of New Zealand’s official cash rate.',
  'nz-gdt': 'Global Dairy Trade auction price change.',
  'ch-snb': 'The Swiss National Bank’s policy rate.',
  'ch-cpi': 'Swiss consumer inflation.',
  'ch-kof': 'The KOF Swiss Economic Institute’s leading indicator.',
  'us-holiday': 'US markets closed.',
  'uk-election': 'The Chancellor presents the government’s tax and spending plans.',
  'us-mba': 'Weekly change in US mortgage applications.',
  'us-redbook': 'Weekly same-store retail sales growth.',
  'us-rigs': 'Active US oil drilling rigs.',
  'us-natgas': 'Weekly change in US natural gas in storage (Bcf).',
  'us-4w-bill': 'Yield at the 4-week Treasury bill auction.',
};

type Described = Pick<Indicator, 'key' | 'name' | 'country' | 'frequency' | 'speech'>;

export function descriptionOf(ind: Described): string {
  const own = DESCRIPTIONS[ind.key];
  if (own) return own;
  if (ind.speech && ind.frequency === 'adhoc')
    return `${ind.name.replace(/ speech$/, '')} speaks; markets listen for hints on monetary policy.`;
  if (ind.name.startsWith('CFTC'))
    return `${ind.name}: speculators' net positions in contracts, from the CFTC's weekly Commitments of Traders report.`;
  return `${ind.name}: a ${ind.frequency === 'weekly' ? 'weekly' : 'regular'} release for ${ind.country}.`;
}
