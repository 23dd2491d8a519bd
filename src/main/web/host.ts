/**
 * Web mode: the same app API as the Electron window, over HTTP (`POST /api/<method>`)
 * and Server-Sent Events (`GET /api/events`), serving the built renderer, on 127.0.0.1
 * only, behind a session token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isRequestMethod,
  parseRequest,
  PUSH_EVENTS,
  WEB_API_PREFIX,
  WEB_EVENTS_PATH,
  WEB_LOGOUT_PATH,
  type ApiErrorBody,
  type RequestResult,
} from '../../shared/ipc.js';
import { statusForApiError, toApiError } from '../errors.js';
import type { MacrobellService } from '../service-contract.js';
import {
  checkOriginAndHost,
  clearedSessionCookie,
  newToken,
  sessionCookie,
  WebSessions,
} from './session.js';
import { SECURITY_HEADERS, assertBuilt, serveStatic } from './static.js';
import { SSE_HEADERS, startHeartbeat } from '../../node/http/server/sse.js';

export interface WebHostOptions {
  service: Pick<MacrobellService, 'api' | 'on'>;
  staticDir: string;
  port?: number;
  /** The bearer token scripts may use (never put in a URL); random by default. */
  token?: string;
  heartbeatMs?: number;
  /** Injectable clock (login code and idle session expiry). */
  now?: () => number;
}

export interface RunningWebHost {
  /** The URL to open: carries a one-time login code. */
  url: string;
  /** Another login URL (the first expires after a few minutes). */
  newLoginUrl(): string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...SECURITY_HEADERS,
    ...extra,
  });
  res.end(text);
}

/** Back to the app without the login code in the address bar (with a new session's cookie). */
function redirectHome(res: ServerResponse, location = '/', cookie?: string): void {
  res.writeHead(303, {
    location,
    ...(cookie ? { 'set-cookie': cookie } : {}),
    'cache-control': 'no-store',
    ...SECURITY_HEADERS,
  });
  res.end();
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function fail(res: ServerResponse, status: number, error: string, message: string): void {
  const body: RequestResult<never> = { ok: false, error: { error, message } };
  json(res, status, body);
}

/** One line, bounded: what a user may read, never a stack trace. */
function userSafe(body: ApiErrorBody): ApiErrorBody {
  const line = body.message.split('\n')[0] ?? '';
  return { error: body.error, message: line.length > 500 ? `${line.slice(0, 500)}…` : line };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const tooLarge = () => Object.assign(new Error('Request body over 1 MiB'), { status: 413 });
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWebHost(opts: WebHostOptions): Promise<RunningWebHost> {
  assertBuilt(opts.staticDir);
  const sessions = new WebSessions(opts.token ?? newToken(), opts.now);
  const clients = new Set<ServerResponse>();
  let port = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = (err as { status?: number }).status;
      if (res.headersSent) return void res.destroy();
      // Only our own, deliberate errors carry a status; anything else stays generic.
      if (status === 413) res.setHeader('connection', 'close');
      if (status) fail(res, status, 'error', (err as Error).message);
      else fail(res, 500, 'internal', 'Something went wrong in Macrobell; see its log.');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refused = checkOriginAndHost(req, port);
    if (refused) return fail(res, 403, 'forbidden', refused);

    // First visit: trade the one-time code in the URL for a session cookie and a page key
    // (in the fragment, which no request carries) and take the code out of the address
    // bar; the history keeps a spent code.
    const offered = url.searchParams.get('token');
    if (offered !== null && req.method === 'GET' && !url.pathname.startsWith('/api/')) {
      const session = sessions.redeem(offered);
      if ('refused' in session) {
        // The printed link opened again in a browser already signed in: just show the app
        // (the page keeps its key; the redirect carries none).
        if (sessions.hasCookie(req, port)) return redirectHome(res);
        res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS });
        res.end(
          `<!doctype html><title>Macrobell</title><p>${escapeHtml(session.refused)}</p><p>Press Enter where <code>npm run web</code> runs for a new login link.</p>`,
        );
        return;
      }
      return redirectHome(res, `/#key=${session.pageKey}`, sessionCookie(port, session.cookie));
    }
    const isApi = url.pathname.startsWith('/api/');
    // The app's files need only the cookie (they hold no data); the API needs the key too.
    const allowed =
      sessions.isAuthorized(req, port, url) || (!isApi && sessions.hasCookie(req, port));
    if (!allowed) {
      if (isApi)
        return fail(
          res,
          401,
          'unauthorized',
          'Missing, expired or incomplete session (the cookie alone is not enough).',
        );
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS });
      res.end(
        '<!doctype html><title>Macrobell</title><p>Open Macrobell with the URL printed by <code>npm run web</code> (it carries a session token).</p>',
      );
      return;
    }

    if (url.pathname === WEB_EVENTS_PATH) {
      if (req.method !== 'GET') return fail(res, 405, 'method_not_allowed', 'Use GET');
      return events(req, res, url);
    }
    if (url.pathname === WEB_LOGOUT_PATH) {
      if (req.method !== 'POST') return fail(res, 405, 'method_not_allowed', 'Use POST');
      sessions.logout(req, port, url);
      return json(
        res,
        200,
        { ok: true, value: null },
        { 'set-cookie': clearedSessionCookie(port) },
      );
    }
    if (url.pathname.startsWith(WEB_API_PREFIX)) {
      if (req.method !== 'POST') return fail(res, 405, 'method_not_allowed', 'Use POST');
      const method = url.pathname.slice(WEB_API_PREFIX.length);
      if (!isRequestMethod(method))
        return fail(res, 404, 'unknown_method', `Unknown method ${method}`);
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
      const text = await readBody(req);
      if (text.length > 0 && type !== 'application/json')
        return fail(res, 415, 'unsupported_media_type', 'Send JSON');
      let input: unknown;
      try {
        input = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        return fail(res, 400, 'invalid_json', 'The body is not valid JSON');
      }
      try {
        const parsed = parseRequest(method, input === null ? undefined : input);
        // The browser opens links itself (target=_blank); the host never launches anything.
        if (method === 'openExternal') return json(res, 200, { ok: true, value: null });
        const call = opts.service.api[method] as (i: unknown) => Promise<unknown>;
        const value = await call(parsed);
        return json(res, 200, { ok: true, value: value ?? null });
      } catch (err) {
        const body = userSafe(toApiError(err));
        return json(res, statusForApiError(body), { ok: false, error: body });
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return fail(res, 405, 'method_not_allowed', 'Use GET');
    if (serveStatic(opts.staticDir, url.pathname, res)) return;
    // Client-side routes fall back to the app.
    if (!url.pathname.includes('.') && serveStatic(opts.staticDir, '/', res)) return;
    fail(res, 404, 'not_found', 'Not found');
  }

  function events(req: IncomingMessage, res: ServerResponse, url: URL): void {
    res.writeHead(200, { ...SSE_HEADERS, ...SECURITY_HEADERS });
    res.write('retry: 2000\n\n');
    clients.add(res);
    const offs = PUSH_EVENTS.map((name) =>
      opts.service.on(name, (payload) => {
        res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
      }),
    );
    // An open page is not idle: each heartbeat keeps its session alive.
    const stopHeartbeat = startHeartbeat(res, opts.heartbeatMs ?? 15_000, () =>
      sessions.touch(req, port, url),
    );
    req.on('close', () => {
      stopHeartbeat();
      offs.forEach((off) => off());
      clients.delete(res);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${sessions.newLoginCode()}`,
    newLoginUrl: () => `${origin}/?token=${sessions.newLoginCode()}`,
    origin,
    port,
    async close() {
      clients.forEach((c) => c.end());
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
