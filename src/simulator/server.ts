/**
 * The simulated service's HTTP handler: the gate each path family passes first (loopback
 * for the control API; a token of the right scope, request counting and injected faults
 * for the two APIs), then the one route table (routes/).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deliverer } from './deliveries.js';
import { ReplyError } from '../node/http/server/reply-error.js';
import { sendReplyError, sendJson } from '../node/http/server/respond.js';
import { authRoutes } from './routes/auth.js';
import { calendarRoutes } from './routes/calendar.js';
import { controlRoutes } from './routes/control.js';
import { newsRoutes } from './routes/news.js';
import { Router } from '../node/http/server/router.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { Autoplay, ScenarioClock } from './scenario.js';
import type { Api, SimulatorState } from './state.js';
import type { TokenIssuer } from './tokens.js';
import type { World } from './world.js';

export interface ServerContext {
  state: SimulatorState;
  tokens: TokenIssuer;
  deliverer: Deliverer;
  world: World;
  clock: ScenarioClock;
  autoplay: Autoplay | null;
  log: (msg: string) => void;
}

const router = new Router<ServerContext>([
  ...authRoutes,
  ...calendarRoutes,
  ...newsRoutes,
  ...webhookRoutes,
  ...controlRoutes,
]);

export function createHandler(ctx: ServerContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(ctx, req, res).catch((err: unknown) => {
      if (err instanceof ReplyError) return sendReplyError(res, err);
      ctx.log(`simulator error: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent)
        sendJson(res, 500, { error: 'server_error', message: 'Internal simulator error' });
      else res.destroy();
    });
  };
}

async function handle(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://sim');
  } catch {
    throw new ReplyError(400, 'invalid_path', 'The request target is not a valid path');
  }
  const path = url.pathname;
  await gate(ctx, req, path);
  const { route, params } = router.find(req.method ?? 'GET', path);
  await route.handle({ ctx, req, res, url, params });
}

/** The Host a control request may carry: the loopback names, any port. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/**
 * The Host any request may carry: the loopback names, or an address (a machine on the LAN
 * reaching `--host 0.0.0.0`). A DNS name is what a rebinding page sends: with the demo keys
 * (public) it could otherwise list the webhooks — the relay's secret URL among them — and
 * add or delete them.
 */
const ADDRESS_HOST = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** What a request must pass before routing (unknown paths included, as the real service). */
async function gate(ctx: ServerContext, req: IncomingMessage, path: string): Promise<void> {
  if (!ADDRESS_HOST.test(req.headers.host ?? ''))
    throw new ReplyError(
      403,
      'forbidden',
      'The simulator answers only Host localhost or an IP address (no DNS names: rebinding)',
    );
  if (path.startsWith('/_sim/')) {
    if (!isLoopback(req.socket.remoteAddress))
      throw new ReplyError(403, 'forbidden', 'The control API is loopback-only');
    // A web page whose name was rebound to 127.0.0.1 sends its own Host: refuse it, as
    // the web dashboard does, so it cannot read the state (the webhook receiver's secret).
    if (!LOOPBACK_HOST.test(req.headers.host ?? ''))
      throw new ReplyError(
        403,
        'forbidden',
        'The control API answers only Host 127.0.0.1, localhost or [::1]',
      );
    return;
  }
  const api: Api | null = path.startsWith('/calendar/')
    ? 'calendar'
    : path.startsWith('/news/')
      ? 'news'
      : null;
  if (!api) return;
  ctx.tokens.authorize(req.headers.authorization, api);
  ctx.state.apiRequests++;
  await injectApiFaults(ctx);
}

async function injectApiFaults(ctx: ServerContext): Promise<void> {
  const { faults } = ctx.state;
  if (faults.latencyMs) await new Promise((r) => setTimeout(r, faults.latencyMs));
  const f = faults.api;
  if (f && (f.count ?? 1) > 0) {
    if (f.count !== undefined) f.count--;
    if (f.count === 0) delete faults.api;
    const headers: Record<string, string> =
      f.retryAfterSec !== undefined ? { 'retry-after': String(f.retryAfterSec) } : {};
    throw new ReplyError(
      f.status,
      f.status === 429 ? 'rate_limited' : 'server_error',
      `Injected ${f.status}`,
      headers,
    );
  }
}

export function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1';
}
