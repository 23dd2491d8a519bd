/**
 * What each indicator of the demo is, as the event's description the service carries: for
 * the headline events their context (event-context.ts) as "Label: text" lines, for the
 * others a sentence of their own or a plain one from their kind.
 */
import { CONTEXT, type EventContext } from './event-context.js';
import type { Indicator } from './indicators.js';

const DESCRIPTIONS: Record<string, string> = {
  'us-trade': 'Exports minus imports of goods and services.',
  'us-crude': 'Weekly change in US commercial crude inventories.',
  'us-housing': 'New residential construction projects begun in the month (annualized).',
  'us-10y': 'Average yield at the auction of 10-year Treasury notes.',
  'de-cpi': 'German consumer inflation, preliminary.',
  'jp-trade': 'Japan’s exports minus imports of goods.',
  'cn-trade': 'China’s trade surplus in US dollars.',
  'us-holiday': 'US markets closed.',
  'uk-election': 'The Chancellor presents the government’s tax and spending plans.',
  'us-mba': 'Weekly change in US mortgage applications.',
  'us-redbook': 'Weekly same-store retail sales growth.',
  'us-rigs': 'Active US oil drilling rigs.',
  'us-natgas': 'Weekly change in US natural gas in storage (Bcf).',
  'us-4w-bill': 'Yield at the 4-week Treasury bill auction.',
};

type Described = Pick<Indicator, 'key' | 'name' | 'country' | 'frequency' | 'speech' | 'inverted'>;

const HOW_OFTEN: Record<Indicator['frequency'], string> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  meeting: 'At each scheduled policy meeting',
  adhoc: 'When scheduled',
};

/** The context as the lines the app's detail lays out (EventContext.tsx). */
function contextText(ind: Described, c: EventContext): string {
  const effect =
    c.effect ??
    (ind.inverted
      ? 'Actual below forecast = good for currency'
      : 'Actual above forecast = good for currency');
  return [
    `Source: ${c.source}`,
    `Measures: ${c.measures}`,
    `Frequency: ${HOW_OFTEN[ind.frequency]}`,
    `Usual effect: ${effect}`,
    `Why traders care: ${c.why}`,
  ].join('\n');
}

export function descriptionOf(ind: Described): string {
  const context = CONTEXT[ind.key];
  if (context) return contextText(ind, context);
  const own = DESCRIPTIONS[ind.key];
  if (own) return own;
  if (ind.speech && ind.frequency === 'adhoc')
    return `${ind.name.replace(/ speech$/, '')} speaks; markets listen for hints on monetary policy.`;
  if (ind.name.startsWith('CFTC'))
    return `${ind.name}: speculators' net positions in contracts, from the CFTC's weekly Commitments of Traders report.`;
  return `${ind.name}: a ${ind.frequency === 'weekly' ? 'weekly' : 'regular'} release for ${ind.country}.`;
}
