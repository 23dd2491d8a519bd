/**
 * Web-mode access control: a one-time login code in the printed URL (`?token=`), exchanged
 * on first use for a different random session value in an HttpOnly SameSite=Strict cookie
 * whose name carries the port (cookies ignore ports: another local server must not get
 * it); a bearer API token for scripts; Origin/Host checks against CSRF and DNS rebinding.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearerToken, constantTimeEqual } from '../../node/security/compare.js';

const cookieName = (port: number) => `macrobell_session_${port}`;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session cookie's value; null when absent or malformed (never an exception). */
function cookieToken(req: IncomingMessage, port: number): string | null {
  const header = req.headers.cookie ?? '';
  const name = cookieName(port);
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return null;
    }
  }
  return null;
}

/** Login codes (one use each), the sessions they opened, and the scripts' bearer token. */
export class WebSessions {
  private readonly codes = new Set<string>();
  private readonly sessions = new Set<string>();

  constructor(private readonly apiToken: string) {}

  newLoginCode(): string {
    const code = newToken();
    this.codes.add(code);
    return code;
  }

  /** A fresh session value for an unused code; null for a wrong or already used one. */
  redeem(code: string): string | null {
    for (const known of this.codes) {
      if (!constantTimeEqual(code, known)) continue;
      this.codes.delete(known);
      const session = newToken();
      this.sessions.add(session);
      return session;
    }
    return null;
  }

  isAuthorized(req: IncomingMessage, port: number): boolean {
    const session = cookieToken(req, port);
    if (session !== null) {
      for (const s of this.sessions) if (constantTimeEqual(session, s)) return true;
    }
    const bearer = bearerToken(req);
    return bearer !== null && constantTimeEqual(bearer, this.apiToken);
  }
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

export function sessionCookie(port: number, session: string): string {
  return `${cookieName(port)}=${encodeURIComponent(session)}; HttpOnly; SameSite=Strict; Path=/`;
}
