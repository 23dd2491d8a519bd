/**
 * The audit lines of refused gateway paths, with a limit: someone probing is worth a line,
 * but one line per request let a flood grow the log by megabytes a second (issue #44:
 * 35,253 requests → +10.2 MB in 10 s). At most `perWindow` lines each window; past that
 * the refusals are counted, and the next line after the window says how many went unlogged.
 */
import type { Logger } from 'pino';

export const REFUSALS_LOGGED_PER_WINDOW = 20;
export const REFUSAL_WINDOW_MS = 60_000;

export interface Refusal {
  user: string;
  method: string | undefined;
  path: string;
}

export function refusalLog(logger: Logger | undefined, now: () => number) {
  let windowStart = Number.NEGATIVE_INFINITY;
  let logged = 0;
  let unlogged = 0;
  return (r: Refusal): void => {
    const t = now();
    if (t - windowStart >= REFUSAL_WINDOW_MS) {
      if (unlogged > 0)
        logger?.warn(
          { audit: 'gateway_refused_unlogged', count: unlogged },
          `gateway: ${unlogged} more refused paths were not logged (limit ${REFUSALS_LOGGED_PER_WINDOW} a minute)`,
        );
      windowStart = t;
      logged = 0;
      unlogged = 0;
    }
    if (logged >= REFUSALS_LOGGED_PER_WINDOW) {
      unlogged++;
      return;
    }
    logged++;
    logger?.info(
      { audit: 'gateway_refused', user: r.user, method: r.method, path: r.path.slice(0, 120) },
      'gateway: not a read the app makes',
    );
  };
}
