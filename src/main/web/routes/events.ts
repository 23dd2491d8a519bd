/**
 * `GET /api/events`: every push of the service, by name, as Server-Sent Events with ids. A
 * page that reconnects (the browser's `Last-Event-ID`, or `?lastEventId=` when it opens a new
 * stream) first gets what it missed, or `resync` when that is no longer kept (push-log.ts).
 */
import { WEB_EVENTS_PATH } from '../../../shared/ipc.js';
import { SSE_HEADERS, startHeartbeat } from '../../../node/http/server/sse.js';
import type { WebRoute } from '../context.js';
import { RESYNC_FRAME } from '../push-log.js';
import { SECURITY_HEADERS } from '../static.js';

const MAX_ID_LENGTH = 40;
/**
 * A page that does not read its stream (a frozen tab, a stalled connection) must not grow the
 * host's memory: past this much unsent, its stream is ended, and the browser reconnects with
 * its `Last-Event-ID` — the log replays what it missed, or tells it to read again.
 */
const MAX_UNSENT_BYTES = 1_000_000;

export const eventsRoute: WebRoute = {
  method: 'GET',
  path: WEB_EVENTS_PATH,
  handle({ ctx, req, res, url }) {
    const header = req.headers['last-event-id'];
    const given = (typeof header === 'string' ? header : url.searchParams.get('lastEventId')) ?? '';
    const resume = ctx.pushes.since(given.slice(0, MAX_ID_LENGTH) || null);
    res.writeHead(200, { ...SSE_HEADERS, ...SECURITY_HEADERS });
    res.write('retry: 2000\n\n');
    // Missed frames first, then live ones: both are written in this one synchronous turn.
    if (resume === 'resync') res.write(RESYNC_FRAME);
    else resume.frames.forEach((f) => res.write(f));
    ctx.streams.add(res);
    // Logout ends the session's streams: no alert reaches a signed-out page.
    const detach = ctx.sessions.attach(req, ctx.port, url, res);
    const off = ctx.pushes.subscribe((frame) => {
      if (res.writableLength > MAX_UNSENT_BYTES) res.destroy();
      else res.write(frame);
    });
    // An open page is not idle: each heartbeat keeps its session alive.
    const stopHeartbeat = startHeartbeat(res, ctx.heartbeatMs, () =>
      ctx.sessions.touch(req, ctx.port, url),
    );
    req.on('close', () => {
      stopHeartbeat();
      off();
      ctx.streams.delete(res);
      detach();
    });
  },
};
