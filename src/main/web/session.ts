/**
 * Web-mode access control: a random session token (arrives once as `?token=`, then lives
 * in an HttpOnly SameSite=Strict cookie), and Origin/Host checks so neither another site
 * (CSRF) nor a rebound DNS name can talk to the local API.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const COOKIE_NAME = 'macrobell_session';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE_NAME) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function bearerToken(req: IncomingMessage): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m ? (m[1] as string) : null;
}

export function isAuthorized(req: IncomingMessage, token: string): boolean {
  const presented = cookieToken(req) ?? bearerToken(req);
  return presented !== null && same(presented, token);
}

/** Only our own origin, and only Host names that mean this machine. */
export function checkOriginAndHost(req: IncomingMessage, port: number): string | null {
  const host = req.headers.host ?? '';
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!allowedHosts.includes(host)) return `Host ${JSON.stringify(host)} is not allowed`;
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.map((h) => `http://${h}`).includes(origin)) {
    return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site') return 'Cross-site requests are not allowed';
  return null;
}

export function sessionCookie(token: string): string {
  return `${COOKIE_NAME}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
