/**
 * Desk operations on one relay node: presence of every desktop (presence.ts), this node's
 * figures published for the others, and the routes and metrics built on them. server.ts
 * calls in at three places: routing, before a stream is served, and /metrics.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { EventLog } from '../event-log.js';
import { sendError } from '../http-util.js';
import type { SseHub } from '../sse-hub.js';
import { MemoryPresenceStore, type PresenceStore } from './presence-store.js';
import { presenceRoutes } from './presence.js';
import { RedisPresenceStore } from './redis-presence-store.js';
import { RedisAdminStore, SqliteAdminStore, type AdminStore } from './admin-store.js';
import { adminRoutes } from './admin-routes.js';
import { adminSnapshot } from './admin-view.js';
import { upcomingReleases } from './upcoming-releases.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import type { UserStore } from '../user-store.js';

export interface DeskOpsOptions {
  redisUrl?: string;
  dataDir: string;
  events: EventLog;
  users: Pick<UserStore, 'list'>;
  /** A user's watched event ids (calendar-feed's store). */
  watchlist: (user: string) => Promise<string[]>;
  /** The desk's access tokens (null without provider keys) and the calendar's URL. */
  tokens: () => TokenManager | null;
  calendarUrl: string;
  /** Whether a bearer token is a trader's (refused on admin routes with 403). */
  isTraderToken: (token: string) => Promise<boolean>;
  /** Applied lag past this counts as "would miss" (default 60 s). */
  lagThresholdSeconds?: number;
  hub: SseHub;
  /** This node's name as desktops and the admin page show it. */
  node: () => string;
  now: () => number;
  logger?: Logger;
  /** How often this node publishes its figures (default 5 s). */
  reportEveryMs?: number;
}

export interface DeskOps {
  readonly presence: PresenceStore;
  handles(path: string): boolean;
  route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    authenticate: () => Promise<string | null>,
  ): Promise<void>;
  /** Before a user's stream is served: false when the answer (400) was already sent. */
  beforeStream(req: IncomingMessage, res: ServerResponse, user: string): boolean;
  /** Publishes this node's figures now (also on a timer). */
  reportNode(): Promise<void>;
  close(): Promise<void>;
}

export async function startDeskOps(opts: DeskOpsOptions): Promise<DeskOps> {
  const { events, hub, now, logger } = opts;
  const presence: PresenceStore = opts.redisUrl
    ? await RedisPresenceStore.open(opts.redisUrl)
    : new MemoryPresenceStore();
  const admins: AdminStore = opts.redisUrl
    ? await RedisAdminStore.open(opts.redisUrl, now)
    : SqliteAdminStore.open(opts.dataDir, now);
  const releases = upcomingReleases({ calendarUrl: opts.calendarUrl, tokens: opts.tokens, now });
  const snapshot = () =>
    adminSnapshot({
      events,
      users: opts.users,
      presence,
      watchlist: opts.watchlist,
      releases,
      lagThresholdSeconds: opts.lagThresholdSeconds ?? 60,
      now,
    });
  const admin = adminRoutes({ admins, isTraderToken: opts.isTraderToken, snapshot, logger });
  const routes = presenceRoutes({
    store: presence,
    node: opts.node,
    parseId: (raw) => events.parseId(raw),
    now,
    logger,
  });

  let last = { at: now(), ingested: events.ingested };
  const reportNode = async () => {
    const t = now();
    const seconds = Math.max(0.001, (t - last.at) / 1000);
    const rate = (events.ingested - last.ingested) / seconds;
    last = { at: t, ingested: events.ingested };
    const h = events.health();
    await presence.reportNode({
      node: opts.node(),
      streams: hub.size,
      ingestPerSecond: Math.round(rate * 100) / 100,
      storeOk: h.ok,
      storeReason: h.reason ?? null,
      reportedAt: t,
    });
  };
  const timer = setInterval(() => {
    reportNode().catch((err: unknown) => logger?.debug({ err }, 'node report failed'));
  }, opts.reportEveryMs ?? 5_000);
  timer.unref();

  return {
    presence,
    handles: (path) => path === '/presence' || admin.handles(path),
    async route(req, res, path, authenticate) {
      if (admin.handles(path)) return admin.route(req, res, path);
      let user: string | null;
      try {
        user = await authenticate();
      } catch {
        req.resume();
        return sendError(res, 503, 'store_unavailable', 'The relay cannot check tokens now');
      }
      if (!user) {
        req.resume();
        return sendError(res, 401, 'unauthorized', 'Missing, wrong or revoked bearer token', {
          'www-authenticate': 'Bearer',
        });
      }
      return routes.post(req, res, user);
    },
    beforeStream(req, res, user) {
      const who = routes.identify(req, user);
      if (who instanceof Error) {
        sendError(res, 400, 'invalid_request', who.message);
        return false;
      }
      if (who) routes.streamOpened(who, res);
      return true;
    },
    reportNode,
    async close() {
      clearInterval(timer);
      await presence.close();
      await admins.close();
    },
  };
}
