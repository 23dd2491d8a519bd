/**
 * The admin routes. `GET /admin` answers HTML, or JSON for `Accept: application/json`;
 * it takes an admin token as a bearer header (scripts, `relay status`) or as the HttpOnly
 * cookie `POST /admin/session` sets from the sign-in form (browsers). A trader token is
 * recognised and refused with 403; anything else gets 401.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { bearerToken } from '../../node/security/compare.js';
import { sendError, sendJson } from '../http-util.js';
import { ADMIN_CSP, renderAdminPage, renderLoginPage } from './admin-page.js';
import type { AdminStore } from './admin-store.js';
import type { AdminSnapshot } from './admin-view.js';
import { parseWhen, type DeliveryRow } from './delivery-log.js';

const COOKIE = 'mb_admin';
const ADMIN_TOKEN = /^mba_[A-Za-z0-9_-]{43}$/;
const FORM_MAX_BYTES = 4096;

export interface AdminRoutesOptions {
  admins: AdminStore;
  /** True when the token is a trader's (so the refusal can say why). */
  isTraderToken: (token: string) => Promise<boolean>;
  snapshot: () => Promise<AdminSnapshot>;
  log: (since: number, until: number) => Promise<{ events: DeliveryRow[]; truncated: boolean }>;
  now: () => number;
  logger?: Logger;
}

function cookieToken(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === COOKIE && v && ADMIN_TOKEN.test(v)) return v;
  }
  return null;
}

function sendHtml(res: ServerResponse, status: number, html: string, extra = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': ADMIN_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > FORM_MAX_BYTES) return null;
    chunks.push(c);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function adminRoutes(opts: AdminRoutesOptions) {
  /** The admin's name, or the status to refuse with. */
  async function who(token: string | null): Promise<string | 401 | 403> {
    if (!token) return 401;
    const admin = await opts.admins.authenticate(token);
    if (admin) return admin;
    return (await opts.isTraderToken(token)) ? 403 : 401;
  }

  async function view(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const json = (req.headers.accept ?? '').includes('application/json');
    const admin = await who(bearerToken(req) ?? cookieToken(req));
    if (admin === 403) {
      const message = 'A trader token cannot open the desk page: use an admin token';
      if (json) return sendError(res, 403, 'forbidden', message);
      return sendHtml(res, 403, renderLoginPage(message));
    }
    if (admin === 401) {
      if (json)
        return sendError(res, 401, 'unauthorized', 'An admin token is required', {
          'www-authenticate': 'Bearer',
        });
      return sendHtml(res, 401, renderLoginPage(null));
    }
    const snapshot = await opts.snapshot();
    if (json) return sendJson(res, 200, snapshot);
    sendHtml(res, 200, renderAdminPage(snapshot, admin));
  }

  /** GET /admin/log?since=…&until=… (JSON): the delivery log of a time range. */
  async function log(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const admin = await who(bearerToken(req) ?? cookieToken(req));
    if (admin === 401 || admin === 403)
      return sendError(
        res,
        admin,
        admin === 401 ? 'unauthorized' : 'forbidden',
        'An admin token is required',
      );
    const q = new URL(req.url ?? '/', 'http://relay').searchParams;
    const now = opts.now();
    const since = parseWhen(q.get('since') ?? '1h', now);
    const until = q.get('until') === null ? now : parseWhen(q.get('until') as string, now);
    if (since === null || until === null || since > until)
      return sendError(
        res,
        400,
        'invalid_request',
        'since and until must be ISO 8601 times or 30m / 2h / 1d ago, since before until',
      );
    sendJson(res, 200, { since, until, ...(await opts.log(since, until)) });
  }

  async function signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (type !== 'application/x-www-form-urlencoded') {
      req.resume();
      return sendError(res, 415, 'unsupported_media_type', 'Send the sign-in form');
    }
    const form = await readForm(req);
    if (!form) return sendError(res, 413, 'too_large', 'The sign-in form is limited to 4 KiB');
    const token = form.get('token')?.trim() ?? '';
    const admin = await who(token || null);
    if (typeof admin !== 'string') {
      const message =
        admin === 403
          ? 'That is a trader token: the desk page needs an admin token'
          : 'Unknown or revoked admin token';
      return sendHtml(res, admin, renderLoginPage(message));
    }
    opts.logger?.info({ audit: 'admin_signed_in', admin }, 'admin signed in');
    const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
    res.writeHead(303, {
      location: '/admin',
      'set-cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=43200${secure}`,
      'cache-control': 'no-store',
    });
    res.end();
  }

  return {
    handles: (path: string) => ['/admin', '/admin/session', '/admin/log'].includes(path),
    route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> | void {
      if (path === '/admin/log') {
        if (req.method === 'GET') return log(req, res);
      } else if (path === '/admin/session') {
        if (req.method === 'POST') return signIn(req, res);
      } else if (req.method === 'GET' || req.method === 'HEAD') return view(req, res);
      req.resume();
      const allow = path === '/admin/session' ? 'POST' : 'GET';
      return sendError(res, 405, 'method_not_allowed', `Use ${allow}`, { allow });
    },
  };
}
