/**
 * `POST /token`: a service access token for a trader (token-endpoint.ts). Service tokens
 * open the whole account (webhooks included), so the path is 404 unless the desk opted in;
 * the bearer check comes before the method check, as on every trader route.
 */
import { RelayErrors } from '../errors.js';
import { requestUser } from './auth.js';
import type { RelayContext, RelayRoute } from './context.js';

export type TokenContext = Pick<RelayContext, 'desk' | 'issueServiceTokens' | 'logger'>;

export const tokenRoute: RelayRoute<TokenContext> = {
  method: '*',
  path: '/token',
  async handle({ ctx, req, res }) {
    if (!ctx.issueServiceTokens) throw RelayErrors.NOT_FOUND();
    const user = await requestUser(ctx, req);
    return ctx.desk.token(req, res, user);
  },
};
