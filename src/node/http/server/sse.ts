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
 * stream between events; returns the function that stops it.
 */
export function startHeartbeat(res: ServerResponse, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (!res.writableEnded) res.write(': hb\n\n');
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
