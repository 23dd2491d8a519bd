/** `GET /api/events`: every push of the service, by name, as Server-Sent Events. */
import { PUSH_EVENTS, WEB_EVENTS_PATH } from '../../../shared/ipc.js';
import { SSE_HEADERS, startHeartbeat } from '../../../node/http/server/sse.js';
import type { WebRoute } from '../context.js';
import { SECURITY_HEADERS } from '../static.js';

export const eventsRoute: WebRoute = {
  method: 'GET',
  path: WEB_EVENTS_PATH,
  handle({ ctx, req, res, url }) {
    res.writeHead(200, { ...SSE_HEADERS, ...SECURITY_HEADERS });
    res.write('retry: 2000\n\n');
    ctx.streams.add(res);
    // Logout ends the session's streams: no alert reaches a signed-out page.
    const detach = ctx.sessions.attach(req, ctx.port, url, res);
    const offs = PUSH_EVENTS.map((name) =>
      ctx.service.on(name, (payload) => {
        res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
      }),
    );
    // An open page is not idle: each heartbeat keeps its session alive.
    const stopHeartbeat = startHeartbeat(res, ctx.heartbeatMs, () =>
      ctx.sessions.touch(req, ctx.port, url),
    );
    req.on('close', () => {
      stopHeartbeat();
      offs.forEach((off) => off());
      ctx.streams.delete(res);
      detach();
    });
  },
};
