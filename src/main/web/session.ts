/**
 * Web-mode access control. A one-time login code in the printed URL (`?token=`) is
 * exchanged on first use for a session made of two values: an HttpOnly SameSite=Strict
 * cookie, and a page key handed to the page in the redirect's fragment (never sent to any
 * server) that the page keeps in its origin's storage and sends as a header. Cookies
 * ignore ports, so any other local server the browser visits receives the cookie: with
 * the cookie alone a request gets 401. Codes expire after a few minutes; wrong tries are
 * counted per source (a handful, then that source's wrong tries are refused for a while)
 * and never spoil a valid code; sessions expire when idle; logout ends one and its streams.
 * An expired link is renewed on the login page with a secret only the trader has — their
 * desk personal token or their private key, as the keychain (or MACROBELL_RELAY_TOKEN)
 * holds it — compared in constant time. Its wrong tries are counted for the whole app, not
 * per address (every address of 127.0.0.0/8 is this machine: counted per address, a local
 * process had a fresh five from each): past MAX_RENEW_TRIES the form takes no secret until
 * the terminal prints a new link, which always works and opens the form again — so a
 * local process can close the form to guesses, never lock the trader out.
 * Scripts use a bearer API token. Origin/Host checks stand against CSRF and DNS rebinding.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bearerToken, constantTimeEqual } from '../../node/security/compare.js';
import { WEB_EVENTS_PATH, WEB_PAGE_KEY_HEADER } from '../../shared/ipc.js';

const cookieName = (port: number) => `macrobell_session_${port}`;
/** A login link works once, within this time. */
export const CODE_TTL_MS = 5 * 60_000;
export const MAX_WRONG_CODES = 5;
/** How long a source's wrong tries are remembered (and past MAX_WRONG_CODES, refused). */
export const WRONG_CODES_WINDOW_MS = 10 * 60_000;
export const SESSION_IDLE_MS = 30 * 60_000;
/** Wrong secrets the renewal form takes, app-wide, per WRONG_CODES_WINDOW_MS. */
export const MAX_RENEW_TRIES = 5;

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

interface Session {
  cookie: string;
  pageKey: string;
  lastSeen: number;
  /** Its open push streams, ended with it. */
  streams: Set<{ destroy(): void }>;
}

export type Redeemed = { cookie: string; pageKey: string } | { refused: string };

/** Login codes, the sessions they opened, and the scripts' bearer token. */
export class WebSessions {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Set<Session>();
  /** Wrong tries per source (the peer's address): how many, since when. */
  private readonly wrongTries = new Map<string, { count: number; since: number }>();
  /** Wrong renewal secrets from anywhere: how many, since when. */
  private renewTries = { count: 0, since: 0 };

  constructor(
    private readonly apiToken: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A fresh code (a new link also lets every source try again, and reopens renewal). */
  newLoginCode(): string {
    const code = newToken();
    this.codes.set(code, this.now() + CODE_TTL_MS);
    this.wrongTries.clear();
    this.renewTries = { count: 0, since: 0 };
    return code;
  }

  /**
   * A new session for an unused, unexpired code; else why not. A valid code always works:
   * another process's wrong tries never spoil it (a 256-bit code is not guessed). Wrong
   * tries are counted per `source`: past MAX_WRONG_CODES that source is refused for the
   * rest of the window.
   */
  redeem(code: string, source = ''): Redeemed {
    const now = this.now();
    for (const [known, expiresAt] of this.codes) {
      if (!constantTimeEqual(code, known)) continue;
      this.codes.delete(known);
      if (now > expiresAt)
        return {
          refused: `This login link has expired: a link works once, within ${CODE_TTL_MS / 60_000} minutes of being printed.`,
        };
      return this.openSession(now);
    }
    return this.wrongTry(source, now, 'This login link is invalid or was already used.');
  }

  /**
   * A new session for the trader's own secret (`known`: what this app holds; none: only the
   * terminal renews); else why not. Past MAX_RENEW_TRIES wrong secrets in the window, from
   * any address, no secret is compared until the window ends or a new link is printed.
   */
  renew(offered: string, known: readonly string[]): Redeemed {
    const now = this.now();
    if (now - this.renewTries.since >= WRONG_CODES_WINDOW_MS)
      this.renewTries = { count: 0, since: now };
    if (this.renewTries.count >= MAX_RENEW_TRIES)
      return {
        refused:
          'Too many wrong secrets were tried here, so this form takes none for now. Press Enter in the terminal where Macrobell runs: the new link it prints works at once.',
      };
    // Every known secret compared, so the time taken does not tell which one came close.
    const match = known
      .filter((k) => k.length > 0)
      .map((k) => constantTimeEqual(offered, k))
      .includes(true);
    if (match && offered.length > 0) return this.openSession(now);
    this.renewTries.count++;
    return { refused: 'That is not the personal token or private key this Macrobell holds.' };
  }

  private openSession(now: number): { cookie: string; pageKey: string } {
    const session = {
      cookie: newToken(),
      pageKey: newToken(),
      lastSeen: now,
      streams: new Set<{ destroy(): void }>(),
    };
    this.sessions.add(session);
    return { cookie: session.cookie, pageKey: session.pageKey };
  }

  private wrongTry(source: string, now: number, refused: string): Redeemed {
    const before = this.wrongTries.get(source);
    const tries =
      before && now - before.since < WRONG_CODES_WINDOW_MS ? before : { count: 0, since: now };
    tries.count++;
    this.wrongTries.set(source, tries);
    if (tries.count > MAX_WRONG_CODES)
      return {
        refused:
          'Too many wrong login links from this address: wait a few minutes, or ask Macrobell for a new one.',
      };
    return { refused };
  }

  /**
   * The live session of both the cookie and the page key (touched), or null. The key comes
   * in a header; only the push stream may put it in `?key=` (EventSource sends no headers).
   */
  private find(req: IncomingMessage, port: number, url: URL): Session | null {
    const cookie = cookieToken(req, port);
    const header = req.headers[WEB_PAGE_KEY_HEADER];
    const key =
      typeof header === 'string'
        ? header
        : url.pathname === WEB_EVENTS_PATH
          ? url.searchParams.get('key')
          : null;
    if (cookie === null || key === null) return null;
    const now = this.now();
    for (const s of this.sessions) {
      if (now - s.lastSeen > SESSION_IDLE_MS) {
        this.sessions.delete(s);
        continue;
      }
      if (constantTimeEqual(cookie, s.cookie) && constantTimeEqual(key, s.pageKey)) {
        s.lastSeen = now;
        return s;
      }
    }
    return null;
  }

  /** Whether the request carries a whole session (cookie and page key) or the API token. */
  isAuthorized(req: IncomingMessage, port: number, url: URL): boolean {
    if (this.find(req, port, url)) return true;
    const bearer = bearerToken(req);
    return bearer !== null && constantTimeEqual(bearer, this.apiToken);
  }

  /** Whether the browser holds a session cookie at all (to serve the page shell). */
  hasCookie(req: IncomingMessage, port: number): boolean {
    const cookie = cookieToken(req, port);
    if (cookie === null) return false;
    const now = this.now();
    for (const s of this.sessions)
      if (now - s.lastSeen <= SESSION_IDLE_MS && constantTimeEqual(cookie, s.cookie)) return true;
    return false;
  }

  /** An open stream keeps its session from going idle. */
  touch(req: IncomingMessage, port: number, url: URL): void {
    this.find(req, port, url);
  }

  /** Ties a push stream to the request's session (if any): ended when the session is. */
  attach(req: IncomingMessage, port: number, url: URL, stream: { destroy(): void }): () => void {
    const s = this.find(req, port, url);
    s?.streams.add(stream);
    return () => s?.streams.delete(stream);
  }

  /** Ends the session and its open push streams. */
  logout(req: IncomingMessage, port: number, url: URL): boolean {
    const s = this.find(req, port, url);
    if (!s) return false;
    this.sessions.delete(s);
    for (const stream of s.streams) stream.destroy();
    s.streams.clear();
    return true;
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

export function clearedSessionCookie(port: number): string {
  return `${cookieName(port)}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
}
