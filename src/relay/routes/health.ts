/** `GET /healthz`: 200 while the store takes webhooks, 503 with the reason when it cannot. */
import { sendJson } from '../http-util.js';
import type { RelayContext, RelayRoute } from './context.js';

export const healthRoute: RelayRoute<Pick<RelayContext, 'events'>> = {
  method: 'GET',
  path: '/healthz',
  handle({ ctx: { events }, req, res }) {
    req.resume();
    const h = events.health();
    sendJson(res, h.ok ? 200 : 503, {
      ok: h.ok,
      backend: events.backend,
      lastId: events.lastId(),
      ...(h.reason === undefined ? {} : { reason: h.reason }),
      ...(h.durability === undefined ? {} : { durability: h.durability }),
      ...(h.storeLost === undefined ? {} : { storeLostAt: new Date(h.storeLost.at).toISOString() }),
    });
  },
};
