/**
 * What each indicator of the demo is, as the event's description the service carries: its
 * context (event-context.ts) as "Label: text" lines, which the app's detail lays out.
 */
import { CONTEXT, type EventContext } from './event-context.js';
import type { Indicator } from './indicators.js';

type Described = Pick<Indicator, 'key' | 'frequency' | 'inverted'>;

const HOW_OFTEN: Record<Indicator['frequency'], string> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  meeting: 'At each scheduled policy meeting',
  adhoc: 'When scheduled',
};

/**
 * The context as the lines the app's detail lays out (EventContext.tsx); a source written
 * to sit inside a sentence ("the Bank of Japan") starts its line with a capital.
 */
function contextText(ind: Described, c: EventContext): string {
  const effect =
    c.effect ??
    (ind.inverted
      ? 'Actual below forecast = good for currency'
      : 'Actual above forecast = good for currency');
  return [
    `Source: ${c.source.replace(/^the /, 'The ')}`,
    `Measures: ${c.measures}`,
    `Frequency: ${c.frequency ?? HOW_OFTEN[ind.frequency]}`,
    `Usual effect: ${effect}`,
    `Why traders care: ${c.why}`,
  ].join('\n');
}

/**
 * The event's description; an indicator without context (a test forbids one) gets none
 * rather than a filler line, so the detail shows nothing instead of saying nothing.
 */
export function descriptionOf(ind: Described): string {
  const context = CONTEXT[ind.key];
  return context ? contextText(ind, context) : '';
}
