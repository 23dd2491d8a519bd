/**
 * The relay's one route table and its request handler. A plain webhook POST takes the
 * hot path (no URL parsing, no table); every other request is routed by the table, and
 * whatever a route throws is answered here: an error of the catalogue (errors.ts) as
 * `{error, message}`, anything else as a 500 (the request is logged, never acknowledged).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReplyError } from '../../node/http/server/reply-error.js';
import { Router } from '../../node/http/server/router.js';
import { messageOf } from '../../shared/error-message.js';
import { refuseAfterDrain } from '../ingest/drain.js';
import { RelayError, RelayErrors } from '../errors.js';
import { sendReplyError } from '../http-util.js';
import type { RelayContext, RelayRoute } from './context.js';
import { healthRoute, liveRoute } from './health.js';
import { hook, ingestRoute, plainHookSegment } from './ingest.js';
import { metricsRoute } from './metrics.js';
import { mountRoutes } from './mounts.js';
import { pageRoute } from './page.js';
import { streamRoute } from './stream.js';
import { tokenRoute } from './token.js';

export const relayRoutes: RelayRoute[] = [
  ingestRoute,
  streamRoute,
  pageRoute,
  tokenRoute,
  healthRoute,
  liveRoute,
  metricsRoute,
  ...mountRoutes,
];
const router = new Router<RelayContext>(relayRoutes);

/** The route for a request; HEAD is answered by the GET route (Node drops the body). */
function find(method: string, path: string) {
  try {
    return router.find(method === 'HEAD' ? 'GET' : method, path);
  } catch (err) {
    if (!(err instanceof ReplyError)) throw err;
    if (err.status === 405) throw RelayErrors.METHOD_NOT_ALLOWED(err.headers.allow ?? 'GET');
    throw RelayErrors.NOT_FOUND();
  }
}

function route(ctx: RelayContext, req: IncomingMessage, res: ServerResponse) {
  const raw = req.url ?? '/';
  // URL parsing reads "\" as "/" (`/x\..\metrics` is /metrics) where proxies do not:
  // refuse it, so a proxy's allow-list for /metrics sees the path the relay serves.
  if (raw.includes('\\')) throw RelayErrors.BACKSLASH_IN_PATH().afterDrain();
  // `//x/metrics` parses as host x, path /metrics (and `http://x/metrics` likewise): a
  // proxy matching paths sees `//x/metrics`. Only an origin-form path is routed.
  if (!raw.startsWith('/') || raw.startsWith('//')) throw RelayErrors.NOT_FOUND().afterDrain();
  const url = new URL(raw, 'http://relay');
  const { route: r, params } = find(req.method ?? 'GET', url.pathname);
  return r.handle({ ctx, req, res, url, params });
}

function answerFailure(
  ctx: RelayContext,
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
): void {
  if (err instanceof RelayError && err.drainFirst) return refuseAfterDrain(req, res, err);
  if (err instanceof ReplyError && !res.headersSent) {
    req.resume();
    return sendReplyError(res, err);
  }
  // A client that hangs up mid-body lands here too: nothing was acknowledged.
  ctx.logger?.warn({ err: messageOf(err) }, 'request failed');
  if (!res.headersSent) sendReplyError(res, RelayErrors.SERVER_ERROR());
  else res.destroy();
}

export function relayHandler(ctx: RelayContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    // The hot path: a plain webhook POST starts reading its body in this turn, and the
    // store's is the only promise made for it.
    const segment = plainHookSegment(req.url ?? '/');
    if (segment !== null) {
      const fail = (err: unknown) => answerFailure(ctx, req, res, err);
      // What would throw here is answered, never left to crash the process.
      try {
        return hook(ctx, req, res, segment, fail);
      } catch (err) {
        return fail(err);
      }
    }
    Promise.resolve()
      .then(() => route(ctx, req, res))
      .catch((err: unknown) => answerFailure(ctx, req, res, err));
  };
}
