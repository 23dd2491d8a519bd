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
import type { HttpClient } from '../../node/http/client.js';
import { ReplyError } from '../../node/http/server/reply-error.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import type { UserStore } from '../users/user-store.js';
import { accountRoutes } from './account-routes.js';
import { feedFailure, plain } from './feed-failure.js';
import type { FeedStore } from './feed-store.js';
import { icsRoute } from './ics-route.js';
import { ReleaseWindow } from './release-window.js';

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

const FEED_PATH = /^\/calendar\/(mbf_[A-Za-z0-9_-]{43})\.ics$/;

export function startCalendarFeed(opts: CalendarFeedOptions): CalendarFeed {
  const now = opts.now ?? Date.now;
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
  const account = accountRoutes({ ...opts, failure });
  const serveFeed = icsRoute({ ...opts, window, cacheMs, failure });

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
        if (!feed) return await account(req, res, path, authenticate);
        req.resume();
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.setHeader('allow', 'GET, HEAD');
          return plain(res, 405, 'Use GET');
        }
        return await serveFeed(req, res, feed[1] as string);
      } catch (err) {
        // Refusals of the catalogue are the relay's handler's to answer; failures are ours.
        if (err instanceof ReplyError) throw err;
        if (!failure.answer(res, err, feed !== null)) res.destroy();
      }
    },
    close: () => opts.store.close(),
  };
}
