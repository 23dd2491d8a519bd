/**
 * Who may use the admin routes: an admin token as a bearer header (scripts, the CLI), or
 * the session cookie the sign-in form sets (browsers). A trader token is recognised and
 * refused with 403 (so the refusal can say why); anything else gets 401.
 *
 * The cookie never holds the admin token: it is `name.expiry.mac`, the MAC an HMAC-SHA256
 * under the admin session key (its own secret, admin-session-key.ts) of the name, the
 * expiry (8 h) and the admin's stored token hash — so revoking the admin (or issuing them a
 * new token) ends every session at once, and a copy of the store alone signs none.
 *
 * While the store does not answer, the page (not an action) is opened on the last good
 * answers this node kept in memory (admin-cache.ts); a request the cache cannot vouch for
 * is answered 503, as before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { createHmac } from 'node:crypto';
import { bearerToken, constantTimeEqual } from '../../../node/security/compare.js';
import { sendReplyError } from '../../http-util.js';
import { RelayErrors } from '../../errors.js';
import { readBody } from '../../../node/http/server/body.js';
import { ReplyError } from '../../../node/http/server/reply-error.js';
import { ADMIN_CSP, renderLoginPage } from './admin-page.js';
import type { AdminStore } from './admin-store.js';
import { AdminCache } from './admin-cache.js';

const COOKIE = 'mb_admin';
const SESSION_SECONDS = 8 * 3600;
const SESSION = /^([A-Za-z0-9_-]{1,100})\.(\d{13})\.([A-Za-z0-9_-]{43})$/;
const FORM_MAX_BYTES = 4096;

export interface AdminAuthOptions {
  admins: AdminStore;
  /** True when the token is a trader's (so the refusal can say why). */
  isTraderToken: (token: string) => Promise<boolean>;
  /** The admin session key (admin-session-key.ts): the session MAC's key is derived from it. */
  sessionSecret: string;
  now: () => number;
  logger?: Logger;
}

function sessionCookie(
  req: IncomingMessage,
): { admin: string; expires: number; mac: string } | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, v] = part.trim().split('=');
    const m = k === COOKIE && v ? SESSION.exec(v) : null;
    if (m)
      return {
        admin: Buffer.from(m[1] as string, 'base64url').toString('utf8'),
        expires: Number(m[2]),
        mac: m[3] as string,
      };
  }
  return null;
}

export function sendHtml(res: ServerResponse, status: number, html: string, extra = {}): void {
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

/** The sign-in form, or null when it is over FORM_MAX_BYTES (the rest is read and dropped). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  try {
    return new URLSearchParams((await readBody(req, FORM_MAX_BYTES)).toString('utf8'));
  } catch (err) {
    if (!(err instanceof ReplyError) || err.status !== 413) throw err;
    req.resume();
    return null;
  }
}

export const wantsJson = (req: IncomingMessage) =>
  (req.headers.accept ?? '').includes('application/json');

/** While the store does not answer: the admin this node last knew behind the request, or null. */
function lastKnown(
  req: IncomingMessage,
  cache: AdminCache,
  fromSession: (req: IncomingMessage, cached: boolean) => Promise<string | null>,
): Promise<string | null> {
  const bearer = bearerToken(req);
  return bearer !== null ? Promise.resolve(cache.cachedAdmin(bearer)) : fromSession(req, true);
}

/** A session's MAC, under a key derived from the admin session key. */
function sessionMac(sessionSecret: string) {
  const key = createHmac('sha256', sessionSecret).update('macrobell admin session v1').digest();
  return (admin: string, expires: number, tokenHash: string) =>
    createHmac('sha256', key).update(`${admin}\n${expires}\n${tokenHash}`).digest('base64url');
}

export function adminAuth(opts: AdminAuthOptions) {
  const mac = sessionMac(opts.sessionSecret);
  const cache = new AdminCache(opts.admins);

  /** The admin of a valid, unexpired session cookie whose admin is still active, or null. */
  async function fromSession(req: IncomingMessage, cached = false): Promise<string | null> {
    const s = sessionCookie(req);
    if (!s || s.expires <= opts.now()) return null;
    const hash = cached ? cache.cachedTokenHash(s.admin) : await cache.activeTokenHash(s.admin);
    return hash !== null && constantTimeEqual(s.mac, mac(s.admin, s.expires, hash))
      ? s.admin
      : null;
  }

  /** The admin's name, or the status to refuse with. */
  async function who(token: string | null): Promise<string | 401 | 403> {
    if (!token) return 401;
    const admin = await cache.authenticate(token);
    if (admin) return admin;
    return (await opts.isTraderToken(token)) ? 403 : 401;
  }

  /**
   * The admin behind the request, or null once the refusal was sent: JSON for scripts,
   * the sign-in page for a browser asking for HTML (`html`). `bearerOnly`: routes that
   * act (replay) take no cookie, so no page a browser is tricked into can use them.
   */
  async function require(
    req: IncomingMessage,
    res: ServerResponse,
    how: { html?: boolean; bearerOnly?: boolean } = {},
  ): Promise<string | null> {
    let admin: string | 401 | 403;
    try {
      const bearer = bearerToken(req);
      if (bearer !== null || how.bearerOnly) admin = await who(bearer);
      else admin = (await fromSession(req)) ?? 401;
    } catch (err) {
      // The store does not answer: a page to read opens on what this node last knew.
      const known = how.bearerOnly ? null : await lastKnown(req, cache, fromSession);
      if (known !== null) return known;
      opts.logger?.warn({ err }, 'admin tokens cannot be checked: the store is unavailable');
      sendReplyError(res, RelayErrors.ADMIN_TOKENS_UNCHECKABLE());
      return null;
    }
    if (typeof admin === 'string') return admin;
    if (how.html)
      sendHtml(
        res,
        admin,
        renderLoginPage(
          admin === 403 ? 'A trader token cannot open the desk page: use an admin token' : null,
        ),
      );
    else if (admin === 403) sendReplyError(res, RelayErrors.TRADER_TOKEN_ON_ADMIN());
    else sendReplyError(res, RelayErrors.ADMIN_TOKEN_REQUIRED());
    return null;
  }

  /** POST /admin/session: the sign-in form sets the cookie. */
  async function signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (type !== 'application/x-www-form-urlencoded') {
      req.resume();
      return sendReplyError(res, RelayErrors.SIGN_IN_FORM_EXPECTED());
    }
    const form = await readForm(req);
    if (!form) return sendReplyError(res, RelayErrors.SIGN_IN_FORM_TOO_LARGE());
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
    const hash = await cache.activeTokenHash(admin);
    if (hash === null) return sendHtml(res, 401, renderLoginPage('Unknown or revoked admin token'));
    const expires = opts.now() + SESSION_SECONDS * 1000;
    const value = `${Buffer.from(admin).toString('base64url')}.${expires}.${mac(admin, expires, hash)}`;
    res.writeHead(303, {
      location: '/admin',
      'set-cookie': `${COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=${SESSION_SECONDS}${secure}`,
      'cache-control': 'no-store',
    });
    res.end();
  }

  return { require, signIn };
}
