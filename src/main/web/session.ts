/**
 * Web-mode access control: a random session token (arrives once as `?token=`, then lives
 * in an HttpOnly SameSite=Strict cookie), and Origin/Host checks so neither another site
 * (CSRF) nor a rebound DNS name can talk to the local API.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearerToken, constantTimeEqual } from '../../node/security/compare.js';

export { bearerToken };

export const COOKIE_NAME = 'macrobell_session';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function cookieToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE_NAME) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function isAuthorized(req: IncomingMessage, token: string): boolean {
  const presented = cookieToken(req) ?? bearerToken(req);
  return presented !== null && constantTimeEqual(presented, token);
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
