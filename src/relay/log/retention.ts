/** Retention: webhooks older than the retention period are trimmed now, then hourly. */
import type { Logger } from 'pino';
import type { EventLog } from './event-log.js';

const HOUR_MS = 3_600_000;

/** Trims once (awaited), then every hour; returns the function that stops the timer. */
export async function startRetention(
  events: EventLog,
  retentionMs: number,
  logger?: Logger,
): Promise<() => void> {
  const trim = () =>
    events.trim(retentionMs).then(
      (removed) => {
        if (removed > 0) logger?.info({ removed }, 'retention trimmed old webhooks');
      },
      (err: unknown) => logger?.warn({ err }, 'retention trim failed; retrying in an hour'),
    );
  await trim();
  const timer = setInterval(trim, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
