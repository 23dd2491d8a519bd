/**
 * `GET /calendar/<feed token>.ics` (no bearer: the URL is the credential): the watched
 * releases of the token's owner, from one shared, briefly cached window of the service's
 * calendar. Answers plain text when it cannot (a calendar app shows it): 404 for a rotated
 * link or a removed user, 501 without keys or calendar URL, 502 when the service fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { EventDate } from '../../shared/domain.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { RelayErrors } from '../errors.js';
import type { UserStore } from '../users/user-store.js';
import { renderFeed, sendFeed } from './feed-response.js';
import { plain, type FeedFailure } from './feed-failure.js';
import type { FeedStore } from './feed-store.js';
import type { ReleaseWindow } from './release-window.js';
import { userStatus } from './user-status.js';

/** What the feed asks calendar apps to poll at (most poll less often anyway). */
const REFRESH_MINUTES = 15;

const NO_CALENDAR_URL =
  'This relay was started without the service’s calendar URL, so it cannot serve calendar feeds.';

export interface IcsRouteOptions {
  store: FeedStore;
  users: Pick<UserStore, 'list'>;
  calendarUrl: string;
  tokens: () => TokenManager | null;
  window: ReleaseWindow;
  /** How long calendar apps may keep an answer. */
  cacheMs: number;
  failure: FeedFailure;
  logger?: Logger;
}

export function icsRoute(opts: IcsRouteOptions) {
  const { store, users } = opts;
  return async function serveFeed(
    req: IncomingMessage,
    res: ServerResponse,
    feedToken: string,
  ): Promise<void> {
    // A node with the wrong key refuses rather than serve a desk it does not match.
    await store.checkKey();
    opts.failure.keyOk();
    const owner = await store.ownerOf(feedToken);
    const status = owner ? await userStatus(users, owner.user) : null;
    if (!owner || !status?.active || status.createdAt !== owner.userCreatedAt)
      return plain(res, 404, 'No such calendar feed (the link was rotated or its user removed).');
    const tokens = opts.calendarUrl ? opts.tokens() : null;
    if (!tokens) {
      const why = opts.calendarUrl ? RelayErrors.NO_KEYS_FOR_FEEDS().message : NO_CALENDAR_URL;
      return plain(res, 501, why);
    }
    const list = await store.watchlist(owner.user);
    let snapshot = { items: [] as EventDate[] };
    try {
      // An empty watch list needs nothing from the service.
      if (list.eventIds.length > 0) snapshot = await opts.window.get(tokens);
    } catch (err) {
      opts.logger?.warn({ err, user: owner.user }, 'calendar feed: the service did not answer');
      return plain(
        res,
        502,
        `The relay could not read the calendar from the service: ${(err as Error).message}`,
      );
    }
    const body = renderFeed(snapshot.items, list.eventIds, list.updatedAt, REFRESH_MINUTES);
    sendFeed(req, res, body, Math.round(opts.cacheMs / 1000));
  };
}
