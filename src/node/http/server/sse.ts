/** Server-Sent Events: the one set of stream headers, and the comment heartbeat. */
import type { ServerResponse } from 'node:http';

/** No caching, no proxy buffering (nginx's X-Accel-Buffering): frames go out as written. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/**
 * A comment line every `everyMs`, so proxies and the client's idle timeout see a live
 * stream between events (`onBeat` runs with each); returns the function that stops it.
 */
export function startHeartbeat(
  res: ServerResponse,
  everyMs: number,
  onBeat?: () => void,
): () => void {
  const timer = setInterval(() => {
    if (res.writableEnded) return;
    res.write(': hb\n\n');
    onBeat?.();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
