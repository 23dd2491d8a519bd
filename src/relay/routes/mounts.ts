/**
 * The parts with routes of their own, mounted under their paths: the calendar feed
 * (`/watchlist`, `/calendar/…`), the read gateway (`/service/…`) and desk operations
 * (`/presence`, `/admin…`). Each takes every method and answers its own 404s and 405s;
 * the paths are passed on as sent (the gateway forwards them %-escapes and all).
 */
import { RelayErrors } from '../errors.js';
import type { RelayContext, RelayRoute } from './context.js';

type MountContext = Pick<RelayContext, 'desk' | 'feed' | 'gateway' | 'ops'>;
type Handle = RelayRoute<MountContext>['handle'];

const toFeed: Handle = ({ ctx, req, res, url }) =>
  ctx.feed.route(req, res, url.pathname, () => ctx.desk.authenticate(req));

const toGateway: Handle = ({ ctx, req, res, url }) =>
  ctx.gateway.route(req, res, (req.url ?? '/').split('?')[0] as string, url.searchParams, () =>
    ctx.desk.authenticate(req),
  );

const toDeskOps: Handle = ({ ctx, req, res, url }) => {
  if (!ctx.ops.handles(url.pathname)) throw RelayErrors.NOT_FOUND();
  return ctx.ops.route(req, res, url.pathname, () => ctx.desk.authenticate(req));
};

const mount = (path: string, handle: Handle): RelayRoute<MountContext> => ({
  method: '*',
  path,
  decode: false,
  handle,
});

export const mountRoutes: RelayRoute<MountContext>[] = [
  mount('/watchlist', toFeed),
  mount('/calendar/*rest', toFeed),
  mount('/service', toGateway),
  mount('/service/*rest', toGateway),
  mount('/presence', toDeskOps),
  mount('/admin', toDeskOps),
  mount('/admin/*rest', toDeskOps),
];
