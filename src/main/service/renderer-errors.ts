/**
 * The renderer's failures in the core's log (`reportRendererError`): an uncaught error, an
 * unhandled rejection, a screen's error boundary with React's component stack. A page that
 * throws in a loop must not fill the disk: at most `perMinute` reports a minute are written,
 * and the next one written says how many were dropped.
 */
import type { RendererErrorReport } from '../../shared/ipc.js';
import type { Logger } from '../../node/log/logger.js';

const MINUTE = 60_000;

export function rendererErrorLog(
  logger: Pick<Logger, 'error'>,
  now: () => number,
  perMinute = 10,
): (report: RendererErrorReport) => void {
  let windowStart = -Infinity;
  let written = 0;
  let dropped = 0;
  return (report) => {
    const t = now();
    if (t - windowStart >= MINUTE) {
      windowStart = t;
      written = 0;
    }
    if (written >= perMinute) {
      dropped++;
      return;
    }
    written++;
    logger.error({ renderer: report, droppedBefore: dropped }, `renderer ${report.kind}`);
    dropped = 0;
  };
}
