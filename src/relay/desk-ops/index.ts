/**
 * Desk operations on one relay node: presence of every desktop (presence.ts), this node's
 * figures published for the others, and the routes and metrics built on them. server.ts
 * calls in at three places: routing, before a stream is served, and /metrics.
 */
import type { RedisTarget } from '../redis-client.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Database from 'better-sqlite3';
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
import { MemoryAlertLedger, RedisAlertLedger, type AlertLedger } from './alert-ledger.js';
import { startDeskAlerts, type DeskAlertCounters } from './desk-alerts.js';
import { deliveryLog } from './delivery-log.js';
import { appliedLagHistogram, opsMetrics } from './ops-metrics.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import type { UserStore } from '../user-store.js';

export interface DeskOpsOptions {
  redis?: RedisTarget;
  /** The relay database (relay-db.ts) when there is no Redis: the admins' table is in it. */
  relayDb: Database.Database | null;
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
  alerts?: DeskAlertsConfig;
}

export interface DeskAlertsConfig {
  /** The chat's incoming-webhook URL (a secret: never logged); null = count only. */
  webhookUrl: string | null;
  /** Alert when a watcher would miss a HIGH release this many minutes before it (default 10). */
  leadMinutes?: number;
  /** How often conditions are checked (default 15 s; 0 = only when `checkAlerts` is called). */
  checkEveryMs?: number;
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
  /** Checks the desk alerts now (also on a timer). */
  checkAlerts(): Promise<void>;
  readonly alertCounters: DeskAlertCounters;
  /** Prometheus lines for /metrics. */
  metrics(): Promise<string>;
  /** Publishes this node's figures now (also on a timer). */
  reportNode(): Promise<void>;
  close(): Promise<void>;
}

function sqliteHandle(db: Database.Database | null): Database.Database {
  if (!db) throw new Error('desk operations need the relay database or Redis');
  return db;
}

export async function startDeskOps(opts: DeskOpsOptions): Promise<DeskOps> {
  const { events, hub, now, logger } = opts;
  const presence: PresenceStore = opts.redis
    ? await RedisPresenceStore.open(opts.redis)
    : new MemoryPresenceStore();
  const admins: AdminStore = opts.redis
    ? await RedisAdminStore.open(opts.redis, now)
    : new SqliteAdminStore(sqliteHandle(opts.relayDb), now);
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
  const ledger: AlertLedger = opts.redis
    ? await RedisAlertLedger.open(opts.redis)
    : new MemoryAlertLedger();
  const alerts = startDeskAlerts({
    webhookUrl: opts.alerts?.webhookUrl ?? null,
    leadMinutes: opts.alerts?.leadMinutes ?? 10,
    ledger,
    snapshot,
    events,
    node: opts.node,
    now,
    logger,
  });
  let checking: Promise<void> | null = null;
  const checkAlerts = () =>
    (checking ??= alerts.check().finally(() => {
      checking = null;
    }));
  const alertEvery = opts.alerts?.checkEveryMs ?? 15_000;
  const alertTimer =
    alertEvery > 0
      ? setInterval(() => {
          checkAlerts().catch((err: unknown) => logger?.warn({ err }, 'desk alert check failed'));
        }, alertEvery)
      : null;
  alertTimer?.unref();
  const admin = adminRoutes({
    admins,
    isTraderToken: opts.isTraderToken,
    snapshot,
    log: (since, until) => deliveryLog(events, presence, since, until),
    now,
    logger,
  });
  const lag = appliedLagHistogram();
  const metrics = opsMetrics({ presence, lag, alerts: alerts.counters, now });
  const observeLag = (appliedId: string) => {
    events.after(appliedId, 1).then(
      ([next]) => lag.observe(next ? Math.max(0, (now() - next.receivedAt) / 1000) : 0),
      () => undefined,
    );
  };
  const routes = presenceRoutes({
    store: presence,
    node: opts.node,
    parseId: (raw) => events.parseId(raw),
    now,
    onAck: observeLag,
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
    checkAlerts,
    alertCounters: alerts.counters,
    metrics: () => metrics.render(),
    async close() {
      clearInterval(timer);
      if (alertTimer) clearInterval(alertTimer);
      await ledger.shutdown();
      await presence.close();
      await admins.close();
    },
  };
}
