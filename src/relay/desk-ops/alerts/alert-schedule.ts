/** Runs the desk-alert check on a timer, one check at a time (a slow one is joined, not doubled). */
import type { Logger } from 'pino';

export function scheduleChecks(check: () => Promise<void>, everyMs: number, logger?: Logger) {
  let checking: Promise<void> | null = null;
  const now = () =>
    (checking ??= check().finally(() => {
      checking = null;
    }));
  const timer =
    everyMs > 0
      ? setInterval(() => {
          now().catch((err: unknown) => logger?.warn({ err }, 'desk alert check failed'));
        }, everyMs)
      : null;
  timer?.unref();
  return { now, stop: () => timer && clearInterval(timer) };
}
