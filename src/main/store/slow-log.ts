/**
 * Slow reads, logged with their duration (Signal-Desktop's habit): a query the window
 * waits on that takes long on a user's machine shows up in the log with its name and
 * size, never its arguments (search words are the user's own).
 */
import type { Logger } from 'pino';
import type { Store } from './store.js';

/** The reads behind what the window shows, and the tray's upcoming list. */
const TIMED_READS = [
  'listEventDates',
  'nextRelease',
  'upcoming',
  'eventHistory',
  'eventOccurrences',
  'listPosts',
  'searchPosts',
  'listAlerts',
] as const satisfies readonly (keyof Store)[];

export const SLOW_QUERY_MS = 50;

/** Wraps the store's reads in place; returns the same store. */
export function logSlowReads(
  store: Store,
  logger: Pick<Logger, 'warn'>,
  thresholdMs = SLOW_QUERY_MS,
): Store {
  for (const name of TIMED_READS) {
    const read = (store[name] as (...args: unknown[]) => unknown).bind(store);
    Object.defineProperty(store, name, {
      configurable: true,
      value: (...args: unknown[]) => {
        const started = performance.now();
        const result = read(...args);
        const ms = performance.now() - started;
        if (ms >= thresholdMs)
          logger.warn({ query: name, ms: Math.round(ms), rows: sizeOf(result) }, 'slow store read');
        return result;
      },
    });
  }
  return store;
}

function sizeOf(result: unknown): number | null {
  if (Array.isArray(result)) return result.length;
  if (result && typeof result === 'object' && 'items' in result && Array.isArray(result.items))
    return result.items.length;
  return result === null ? 0 : null;
}
