/** The token endpoint (OAuth 2.0 client credentials). */
import { sendJson } from '../../node/http/server/respond.js';
import type { Route } from './router.js';

export const authRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth/v2/token',
    handle: async ({ ctx, req, res }) =>
      sendJson(res, 200, await ctx.tokens.handle(req), {
        'cache-control': 'no-store',
        pragma: 'no-cache',
      }),
  },
];
