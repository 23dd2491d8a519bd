/**
 * Web mode: the same app API as the Electron window, over HTTP (`POST /api/<method>`)
 * and Server-Sent Events (`GET /api/events`), serving the built renderer, on 127.0.0.1
 * only, behind a session token. Every request passes the gate (access.ts), then the one
 * route table (routes/).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReplyError } from '../../node/http/server/reply-error.js';
import { Router } from '../../node/http/server/router.js';
import type { MacrobellService } from '../service-contract.js';
import { admit } from './access.js';
import type { WebContext } from './context.js';
import { PushLog } from './push-log.js';
import { webErrors } from './errors.js';
import { sendWebError } from './reply.js';
import { apiRoute } from './routes/api.js';
import { eventsRoute } from './routes/events.js';
import { logoutRoute } from './routes/logout.js';
import { staticRoutes } from './routes/static.js';
import { newToken, WebSessions } from './session.js';
import { assertBuilt } from './static.js';

export interface WebHostOptions {
  service: Pick<MacrobellService, 'api' | 'on'>;
  staticDir: string;
  port?: number;
  /** The bearer token scripts may use (never put in a URL); random by default. */
  token?: string;
  heartbeatMs?: number;
  /** Injectable clock (login code and idle session expiry). */
  now?: () => number;
  /**
   * The trader's own secrets (keychain or environment), read when a login is renewed on the
   * login page (routes/login.ts); absent: only the terminal gives new login links.
   */
  loginSecrets?: () => Promise<string[]>;
}

export interface RunningWebHost {
  /** The URL to open: carries a one-time login code. */
  url: string;
  /** Another login URL (the first expires after a few minutes). */
  newLoginUrl(): string;
  origin: string;
  port: number;
  /** Push streams open now (each page's one). */
  openStreams(): number;
  close(): Promise<void>;
}

// The stream and logout before the API's `:method`, which would otherwise take their paths.
const router = new Router<WebContext>([eventsRoute, logoutRoute, apiRoute, ...staticRoutes]);

async function handle(ctx: WebContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (!admit(ctx, req, res, url)) return;
  const { route, params } = router.find(req.method ?? 'GET', url.pathname);
  await route.handle({ ctx, req, res, url, params });
}

export async function startWebHost(opts: WebHostOptions): Promise<RunningWebHost> {
  assertBuilt(opts.staticDir);
  const ctx: WebContext = {
    service: opts.service,
    sessions: new WebSessions(opts.token ?? newToken(), opts.now),
    staticDir: opts.staticDir,
    heartbeatMs: opts.heartbeatMs ?? 15_000,
    port: 0,
    loginSecrets: opts.loginSecrets ?? null,
    streams: new Set(),
    pushes: new PushLog(opts.service),
  };
  const server = createServer((req, res) => {
    handle(ctx, req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      // Only our own, deliberate errors say what went wrong; anything else stays generic.
      sendWebError(res, err instanceof ReplyError ? err : webErrors.internal());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  ctx.port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${ctx.port}`;
  const newLoginUrl = () => `${origin}/?token=${ctx.sessions.newLoginCode()}`;
  return {
    url: newLoginUrl(),
    newLoginUrl,
    origin,
    port: ctx.port,
    openStreams: () => ctx.streams.size,
    async close() {
      ctx.streams.forEach((s) => s.end());
      ctx.pushes.dispose();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
