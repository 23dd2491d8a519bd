/**
 * The desk relay's webcal feed of each user's watched releases:
 *   PUT  /watchlist            {"eventIds": [...]}  (bearer) the app uploads its watch list
 *   GET  /watchlist                                 (bearer) what the relay has
 *   GET  /calendar/feed-url                         (bearer) {url, webcal, createdAt}
 *   POST /calendar/feed-url                         (bearer) a new URL; the old one 404s
 *   GET  /calendar/<feed token>.ics                 (no bearer: the URL is the credential)
 * Releases come from the service with the desk's keys (one shared, briefly cached window);
 * a revoked user's feed 404s; without provider keys every route answers 501. Lists and
 * tokens are in a FeedStore (this node's SQLite, or the desk's Redis); a store outage or a
 * key that is not the desk's answers 503 (feed-failure.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { watchlistBodySchema } from '../../shared/calendar-feed.js';
import type { EventDate } from '../../shared/domain.js';
import type { HttpClient } from '../../node/http/client.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { sendError, sendJson } from '../http-util.js';
import type { UserStore } from '../user-store.js';
import { renderFeed, sendFeed } from './feed-response.js';
import { feedFailure, plain } from './feed-failure.js';
import type { FeedStore } from './feed-store.js';
import { ReleaseWindow } from './release-window.js';
import { readJsonBody } from './read-body.js';
import { userStatus } from './user-status.js';

export interface CalendarFeedOptions {
  /** Watch lists and feed tokens: the relay database's, or Redis's shared by every node. */
  store: FeedStore;
  /** The desk's users (revoked or re-added users lose their old feed). */
  users: Pick<UserStore, 'list'>;
  calendarUrl: string;
  /** The desk's token manager for its current keys; null = no keys (501). */
  tokens: () => TokenManager | null;
  /** The relay's public base URL for feed links; default: from the request's Host. */
  publicUrl?: string;
  /** How long one fetch of the window serves every feed (default 60 s). */
  cacheMs?: number;
  http?: HttpClient;
  logger?: Logger;
  now?: () => number;
}

export interface CalendarFeed {
  handles(path: string): boolean;
  route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    authenticate: () => Promise<string | null>,
  ): Promise<void> | void;
  close(): Promise<void>;
}

/** What the feed asks calendar apps to poll at (most poll less often anyway). */
const REFRESH_MINUTES = 15;
const FEED_PATH = /^\/calendar\/(mbf_[A-Za-z0-9_-]{43})\.ics$/;
const NO_KEYS =
  'This relay has no provider keys, so it cannot serve calendar feeds. ' +
  'Set MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY (or run `relay keys set`) on the relay.';

const NO_CALENDAR_URL =
  'This relay was started without the service’s calendar URL, so it cannot serve calendar feeds.';

/** The base URL calendar apps should use: the configured one, else what the client called. */
function baseUrl(req: IncomingMessage, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const first = (v: string | string[] | undefined) =>
    (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
  const proto = first(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? 'localhost';
  return `${proto}://${host}`;
}

export function startCalendarFeed(opts: CalendarFeedOptions): CalendarFeed {
  const now = opts.now ?? Date.now;
  const { users, store } = opts;
  const failure = feedFailure(opts.logger);
  const cacheMs = opts.cacheMs ?? 60_000;
  const window = new ReleaseWindow({
    calendarUrl: opts.calendarUrl,
    ttlMs: cacheMs,
    pastDays: 7,
    aheadDays: 90,
    http: opts.http,
    now,
  });

  async function feedUrl(
    req: IncomingMessage,
    res: ServerResponse,
    user: string,
    rotate: boolean,
  ): Promise<void> {
    const { createdAt: userCreatedAt } = await userStatus(users, user);
    const { token, createdAt } = await store.feedToken(user, userCreatedAt, rotate);
    failure.keyOk();
    const url = `${baseUrl(req, opts.publicUrl)}/calendar/${token}.ics`;
    if (rotate) opts.logger?.info({ audit: 'calendar_feed_rotated', user }, 'feed URL rotated');
    sendJson(res, 200, { url, webcal: url.replace(/^https?:\/\//, 'webcal://'), createdAt });
  }

  async function putWatchlist(req: IncomingMessage, res: ServerResponse, user: string) {
    const body = await readJsonBody(req);
    if (!body.ok) return sendError(res, body.status, 'invalid_request', body.message);
    const parsed = watchlistBodySchema.safeParse(body.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return sendError(res, 400, 'invalid_watchlist', `${where}${issue?.message ?? 'invalid'}`);
    }
    const eventIds = [...new Set(parsed.data.eventIds.map((id) => id.toLowerCase()))];
    sendJson(res, 200, await store.setWatchlist(user, eventIds));
  }

  async function serveFeed(req: IncomingMessage, res: ServerResponse, feedToken: string) {
    // A node with the wrong key refuses rather than serve a desk it does not match.
    await store.checkKey();
    failure.keyOk();
    const owner = await store.ownerOf(feedToken);
    const status = owner ? await userStatus(users, owner.user) : null;
    if (!owner || !status?.active || status.createdAt !== owner.userCreatedAt)
      return plain(res, 404, 'No such calendar feed (the link was rotated or its user removed).');
    const tokens = opts.calendarUrl ? opts.tokens() : null;
    if (!tokens) return plain(res, 501, opts.calendarUrl ? NO_KEYS : NO_CALENDAR_URL);
    const list = await store.watchlist(owner.user);
    let snapshot = { items: [] as EventDate[] };
    try {
      // An empty watch list needs nothing from the service.
      if (list.eventIds.length > 0) snapshot = await window.get(tokens);
    } catch (err) {
      opts.logger?.warn({ err, user: owner.user }, 'calendar feed: the service did not answer');
      return plain(
        res,
        502,
        `The relay could not read the calendar from the service: ${(err as Error).message}`,
      );
    }
    const body = renderFeed(snapshot.items, list.eventIds, list.updatedAt, REFRESH_MINUTES);
    sendFeed(req, res, body, Math.round(cacheMs / 1000));
  }

  async function bearerRoute(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    authenticate: () => Promise<string | null>,
  ): Promise<void> {
    let user: string | null;
    try {
      user = await authenticate();
    } catch (err) {
      opts.logger?.warn({ err }, 'the user store is unavailable; request refused with 503');
      req.resume();
      return sendError(res, 503, 'store_unavailable', 'The relay cannot check tokens now', {
        'retry-after': '1',
      });
    }
    if (!user) {
      req.resume();
      return sendError(res, 401, 'unauthorized', 'Missing, wrong or revoked bearer token', {
        'www-authenticate': 'Bearer',
      });
    }
    if (!opts.tokens()) {
      req.resume();
      return sendError(res, 501, 'not_configured', NO_KEYS);
    }
    const method = req.method ?? 'GET';
    if (path === '/watchlist') {
      if (method === 'PUT') return putWatchlist(req, res, user);
      req.resume();
      if (method === 'GET') return sendJson(res, 200, await store.watchlist(user));
      return sendError(res, 405, 'method_not_allowed', 'Use GET or PUT', { allow: 'GET, PUT' });
    }
    req.resume();
    if (method === 'GET' || method === 'POST') return feedUrl(req, res, user, method === 'POST');
    return sendError(res, 405, 'method_not_allowed', 'Use GET or POST', { allow: 'GET, POST' });
  }

  return {
    handles: (path) =>
      path === '/watchlist' || path === '/calendar/feed-url' || path.startsWith('/calendar/'),
    async route(req, res, path, authenticate) {
      const feed = FEED_PATH.exec(path);
      try {
        if (!feed && path !== '/watchlist' && path !== '/calendar/feed-url') {
          req.resume();
          return plain(res, 404, 'No such calendar feed.');
        }
        if (!feed) return await bearerRoute(req, res, path, authenticate);
        req.resume();
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.setHeader('allow', 'GET, HEAD');
          return plain(res, 405, 'Use GET');
        }
        return await serveFeed(req, res, feed[1] as string);
      } catch (err) {
        // The .ics answers plain text (a calendar app shows it); the others JSON.
        if (!failure.answer(res, err, feed !== null)) res.destroy();
      }
    },
    close: () => store.close(),
  };
}
