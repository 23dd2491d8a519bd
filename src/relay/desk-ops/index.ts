/**
 * Desk operations on one relay node: presence of every desktop (presence.ts), this node's
 * figures published for the others, replay to a trader's streams, and the routes and
 * metrics built on them. server.ts calls in at three places: routing, before a stream is
 * served, and /metrics.
 */
import type { RedisTarget } from '../redis/redis-client.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { EventLog } from '../log/event-log.js';
import { sendReplyError } from '../http-util.js';
import { RelayErrors } from '../errors.js';
import type { SseHub } from '../stream/sse-hub.js';
import {
  MAX_DESKTOPS_PER_USER,
  PRESENCE_KEEP_MS,
  type PresenceStore,
} from './presence/presence-store.js';
import { presenceRoutes, type PresenceRoutes } from './presence/presence.js';
import { adminRoutes } from './admin/admin-routes.js';
import { StoreDownView } from './admin/store-down-view.js';
import { LAG_COUNT_CAP, adminSnapshot, type AdminViewDeps } from './admin/admin-view.js';
import { LogPositions } from './replay/log-positions.js';
import { upcomingReleases } from './alerts/upcoming-releases.js';
import { startDeskAlerts, type DeskAlertCounters } from './alerts/desk-alerts.js';
import { deliveryLog } from './replay/delivery-log.js';
import { releaseNames } from './replay/release-names.js';
import { deskReleases, type DeskReleases } from './desk-releases.js';
import { knownTradersLog } from './replay/trader-log.js';
import { appliedLagHistogram, lagObserver, opsMetrics } from './ops-metrics.js';
import { openOpsStores } from './ops-stores.js';
import { silentNodeReason } from './presence/silent-node.js';
import { startNodeReports } from './presence/node-report.js';
import { scheduleChecks } from './alerts/alert-schedule.js';
import { replayService } from './replay/replay.js';
import { TraderStreams } from './presence/trader-streams.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import type { UserStore } from '../users/user-store.js';

export interface DeskOpsOptions {
  redis?: RedisTarget;
  /** The admin session key (admin-session-key.ts): signs admin sessions. */
  sessionSecret: string;
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
  /** Where the other nodes reach this one (null until it listens). */
  nodeUrl?: () => string | null;
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
  /** How long without an unknown-secret refusal ends that episode (default 10 min). */
  unknownSecretQuietMs?: number;
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
  /** Before a user's stream is served: false when the answer (400, 429, 503) was already sent. */
  beforeStream(req: IncomingMessage, res: ServerResponse, user: string): Promise<boolean>;
  /** Checks the desk alerts now (also on a timer). */
  checkAlerts(): Promise<void>;
  readonly alertCounters: DeskAlertCounters;
  /** Prometheus lines for /metrics. */
  metrics(): Promise<string>;
  /** Publishes this node's figures now (also on a timer). */
  reportNode(): Promise<void>;
  close(): Promise<void>;
}

/** POST /presence: the trader's own bearer token. */
async function presencePost(
  req: IncomingMessage,
  res: ServerResponse,
  routes: PresenceRoutes,
  authenticate: () => Promise<string | null>,
): Promise<void> {
  let user: string | null;
  try {
    user = await authenticate();
  } catch {
    req.resume();
    return sendReplyError(res, RelayErrors.TOKENS_UNCHECKABLE());
  }
  if (!user) {
    req.resume();
    return sendReplyError(res, RelayErrors.UNAUTHORIZED());
  }
  return routes.post(req, res, user);
}

/** Records a desktop's stream in presence; false when the answer (400, 429, 503) was sent. */
async function recordStream(
  req: IncomingMessage,
  res: ServerResponse,
  user: string,
  routes: PresenceRoutes,
  logger: Logger | undefined,
): Promise<boolean> {
  const who = routes.identify(req, user);
  if (who instanceof Error) {
    sendReplyError(res, RelayErrors.INVALID_REQUEST(who.message));
    return false;
  }
  if (!who) return true;
  let recorded: boolean;
  try {
    recorded = await routes.streamOpened(who, res);
  } catch (err) {
    logger?.warn({ err }, 'presence could not be recorded (store away)');
    sendReplyError(res, RelayErrors.PRESENCE_UNRECORDABLE());
    return false;
  }
  if (recorded) return true;
  const minutes = PRESENCE_KEEP_MS / 60_000;
  sendReplyError(res, RelayErrors.TOO_MANY_DESKTOPS(user, MAX_DESKTOPS_PER_USER, minutes));
  return false;
}

/** What the admin view reads. */
function viewDeps(
  opts: DeskOpsOptions,
  presence: PresenceStore,
  positions: LogPositions,
  log: AdminViewDeps['log'],
  releases: DeskReleases,
): AdminViewDeps {
  const { events, now } = opts;
  return {
    events,
    positions,
    users: opts.users,
    presence,
    watchlist: opts.watchlist,
    releases: upcomingReleases({ releases, tokens: opts.tokens, now }),
    log,
    lagThresholdSeconds: opts.lagThresholdSeconds ?? 60,
    silentReason: silentNodeReason,
    now,
  };
}

/** The log's last positions (a desktop's lag), read at start; the stores closed if it fails. */
async function seededPositions(
  events: EventLog,
  stores: { close(): Promise<void> },
): Promise<LogPositions> {
  const positions = new LogPositions(events, LAG_COUNT_CAP);
  await positions.seed(events).catch(async (err: unknown) => {
    positions.close();
    await stores.close();
    throw err;
  });
  return positions;
}

export async function startDeskOps(opts: DeskOpsOptions): Promise<DeskOps> {
  const { events, now, logger } = opts;
  const stores = await openOpsStores(opts);
  const { presence } = stores;
  const log = (since: number, until: number) => deliveryLog(events, presence, since, until);
  const releases = deskReleases(opts);
  const names = releaseNames({ releases, tokens: opts.tokens });
  const positions = await seededPositions(events, stores);
  const view = viewDeps(opts, presence, positions, log, releases);
  const storeDown = new StoreDownView(opts);
  const alerts = startDeskAlerts({
    webhookUrl: opts.alerts?.webhookUrl ?? null,
    leadMinutes: opts.alerts?.leadMinutes ?? 10,
    ledger: stores.ledger,
    snapshot: async () => storeDown.remember(await adminSnapshot(view, { deliveries: false })),
    events,
    node: opts.node,
    now,
    logger,
  });
  const nodeReports = startNodeReports({ ...opts, presence, everyMs: opts.reportEveryMs ?? 5_000 });
  // A node reports itself before it checks, so it never finds itself silent.
  const checkAlerts = async () => {
    await nodeReports
      .report()
      .catch((err: unknown) => logger?.debug({ err }, 'node report failed'));
    await alerts.check();
  };
  const checks = scheduleChecks(checkAlerts, opts.alerts?.checkEveryMs ?? 15_000, logger);
  const streams = new TraderStreams();
  const replays = replayService({ ...opts, presence, streams, signal: stores.replays });
  stores.replays.listen(opts.node, replays.handle);
  const admin = adminRoutes({
    ...opts,
    admins: stores.admins,
    snapshot: () => storeDown.snapshot(() => adminSnapshot(view), alerts.open),
    log,
    traderLog: knownTradersLog({ users: opts.users, events, presence, releaseNames: names }),
    replay: replays.replay,
  });
  const lag = appliedLagHistogram();
  const routes = presenceRoutes({
    store: presence,
    node: opts.node,
    parseId: (raw) => events.parseId(raw),
    now,
    onAck: lagObserver(positions, lag, now),
    logger,
  });
  const metrics = opsMetrics({
    presence,
    lag,
    alerts: alerts.counters,
    replays: replays.counters,
    now,
  });

  return {
    presence,
    handles: (path) => path === '/presence' || admin.handles(path),
    async route(req, res, path, authenticate) {
      if (admin.handles(path)) return admin.route(req, res, path);
      return presencePost(req, res, routes, authenticate);
    },
    async beforeStream(req, res, user) {
      if (!(await recordStream(req, res, user, routes, logger))) return false;
      streams.add(user, res);
      return true;
    },
    reportNode: nodeReports.report,
    checkAlerts: checks.now,
    alertCounters: alerts.counters,
    metrics: () => metrics.render(),
    async close() {
      nodeReports.stop();
      checks.stop();
      positions.close();
      await stores.close();
    },
  };
}
