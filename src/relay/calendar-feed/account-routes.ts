/**
 * The feed's routes for a signed-in trader (bearer token), answering JSON:
 *   PUT  /watchlist            {"eventIds": [...]}  the app uploads its watch list
 *   GET  /watchlist                                 what the relay has
 *   GET  /calendar/feed-url                         {url, webcal, createdAt}
 *   POST /calendar/feed-url                         a new URL; the old one 404s
 * Refusals are thrown from the relay's error catalogue (errors.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { watchlistBodySchema } from '../../shared/calendar-feed.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { RelayErrors } from '../errors.js';
import { sendJson } from '../http-util.js';
import { requireUser } from '../routes/auth.js';
import type { UserStore } from '../users/user-store.js';
import type { FeedFailure } from './feed-failure.js';
import type { FeedStore } from './feed-store.js';
import { readJsonBody } from './read-body.js';
import { userStatus } from './user-status.js';

export interface AccountRoutesOptions {
  store: FeedStore;
  users: Pick<UserStore, 'list'>;
  tokens: () => TokenManager | null;
  /** The relay's public base URL for feed links; default: from the request's Host. */
  publicUrl?: string;
  failure: FeedFailure;
  logger?: Logger;
}

/** The base URL calendar apps should use: the configured one, else what the client called. */
function baseUrl(req: IncomingMessage, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const first = (v: string | string[] | undefined) =>
    (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
  const proto = first(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? 'localhost';
  return `${proto}://${host}`;
}

export function accountRoutes(opts: AccountRoutesOptions) {
  const { store, users } = opts;

  async function feedUrl(req: IncomingMessage, res: ServerResponse, user: string, rotate: boolean) {
    const { createdAt: userCreatedAt } = await userStatus(users, user);
    const { token, createdAt } = await store.feedToken(user, userCreatedAt, rotate);
    opts.failure.keyOk();
    const url = `${baseUrl(req, opts.publicUrl)}/calendar/${token}.ics`;
    if (rotate) opts.logger?.info({ audit: 'calendar_feed_rotated', user }, 'feed URL rotated');
    sendJson(res, 200, { url, webcal: url.replace(/^https?:\/\//, 'webcal://'), createdAt });
  }

  async function putWatchlist(req: IncomingMessage, res: ServerResponse, user: string) {
    const body = await readJsonBody(req);
    if (!body.ok) throw RelayErrors.INVALID_BODY(body.status, body.message);
    const parsed = watchlistBodySchema.safeParse(body.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw RelayErrors.INVALID_WATCHLIST(`${where}${issue?.message ?? 'invalid'}`);
    }
    const eventIds = [...new Set(parsed.data.eventIds.map((id) => id.toLowerCase()))];
    sendJson(res, 200, await store.setWatchlist(user, eventIds));
  }

  /** `path` is /watchlist or /calendar/feed-url. */
  return async function route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    authenticate: () => Promise<string | null>,
  ): Promise<void> {
    const user = await requireUser(authenticate, opts.logger);
    if (!opts.tokens()) throw RelayErrors.NO_KEYS_FOR_FEEDS();
    const method = req.method ?? 'GET';
    if (path === '/watchlist') {
      if (method === 'PUT') return putWatchlist(req, res, user);
      req.resume();
      if (method === 'GET') return sendJson(res, 200, await store.watchlist(user));
      throw RelayErrors.METHOD_NOT_ALLOWED('GET, PUT', 'GET or PUT');
    }
    req.resume();
    if (method === 'GET' || method === 'POST') return feedUrl(req, res, user, method === 'POST');
    throw RelayErrors.METHOD_NOT_ALLOWED('GET, POST', 'GET or POST');
  };
}
