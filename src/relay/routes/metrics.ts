/** `GET /metrics`: Prometheus text (metrics.ts and desk-ops' figures). */
import type { RelayContext, RelayRoute } from './context.js';

export const metricsRoute: RelayRoute<Pick<RelayContext, 'metrics'>> = {
  method: 'GET',
  path: '/metrics',
  async handle({ ctx, req, res }) {
    req.resume();
    const text = await ctx.metrics();
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(text);
  },
};
