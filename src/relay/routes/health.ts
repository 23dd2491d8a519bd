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

/**
 * `GET /livez`: 200 while this process answers, whatever its store says — for a proxy's
 * active health check (deploy/Caddyfile), which must not take every node out while Redis is
 * away (then /healthz is 503 on all of them, and the relay's own 503s say why).
 */
export const liveRoute: RelayRoute<Pick<RelayContext, 'events'>> = {
  method: 'GET',
  path: '/livez',
  handle({ req, res }) {
    req.resume();
    sendJson(res, 200, { ok: true });
  },
};
