/**
 * The process's logger as `onUnexpectedError` (src/shared/event.ts): a listener that throws
 * where its emitter has no handler of its own reaches the log once, with the event's name,
 * instead of the console only. The app core installs its log while it runs, the relay its.
 */
import { setUnexpectedErrorHandler } from '../../shared/event.js';
import type { Logger } from './logger.js';

/** Returns the uninstall (the previous handler is back, unless another was installed since). */
export function logUnexpectedErrors(logger: Pick<Logger, 'error'>): () => void {
  return setUnexpectedErrorHandler((err, event) =>
    logger.error({ err, event }, event ? `a listener of ${event} failed` : 'an unexpected error'),
  );
}
