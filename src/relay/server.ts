/**
 * The relay server: `POST /hooks/{secret}` stores a webhook and answers 204 only after
 * the commit; `GET /events` streams stored webhooks over SSE with Last-Event-ID resume;
 * `GET /events/page` pages them as JSON; `/healthz` and `/metrics` for operators.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { z } from 'zod';
import { StoreUnavailable, type EventLog } from './event-log.js';
import { constantTimeEqual } from '../node/security/compare.js';
import { startDesk, type DeskOptions } from './desk.js';
import { startDeskOps, type DeskAlertsConfig } from './desk-ops/index.js';
import { startCalendarFeed, type CalendarFeedOptions } from './calendar-feed/index.js';
import type { FeedStore } from './calendar-feed/feed-store.js';
import { RedisFeedStore } from './calendar-feed/redis-feed-store.js';
import { SqliteFeedStore } from './calendar-feed/sqlite-feed-store.js';
import { createGateway } from './gateway/index.js';
import { decodePathSegment, sendError, sendJson, sendJsonText } from './http-util.js';
import { refuseAfterDrain } from './drain.js';
import { BodyBudget, readWebhook } from './ingest.js';
import { relayMetrics } from './metrics.js';
import type { DurabilityMode } from './redis-durability.js';
import type { RedisTarget } from './redis-client.js';
import { RedisEventLog } from './redis-log.js';
import { SqliteEventLog } from './sqlite-log.js';
import { openRelayDatabase } from './relay-db.js';
import { RedisUserStore } from './redis-users.js';
import type { UserStore } from './user-store.js';
import { SqliteUserStore } from './users.js';
import { PAGE_BYTES, SseHub } from './sse-hub.js';
import { SSE_HEADERS } from '../node/http/server/sse.js';
import { RELAY_EVENT_ID } from '../shared/relay-ids.js';

export interface RelayOptions {
  dataDir: string;
  /** The unguessable path segment of the webhook URL. */
  secret: string;
  /** The bearer token desktops present on /events. */
  token: string;
  port?: number;
  host?: string;
  retentionDays?: number;
  heartbeatMs?: number;
  /** A client whose unsent backlog grows past this is disconnected (it resumes later). */
  maxQueuedBytesPerClient?: number;
  /** Webhook body bytes held at once across requests (default 64 MiB); past it: 503 busy. */
  maxBodyBytesInFlight?: number;
  /** 0 (default): commit when the event loop turns; > 0: also wait this long for more. */
  commitIntervalMs?: number;
  logger?: Logger;
  /** Injectable clock (receive times and retention). */
  now?: () => number;
  /** Use Redis Streams (shared by any number of nodes) instead of the SQLite file. */
  redis?: RedisTarget & { durability?: DurabilityMode; dedupWindowMs?: number };
  /** Desk mode: provider keys, service URL and /token rate (see desk.ts). */
  desk?: Pick<
    DeskOptions,
    | 'keys'
    | 'authUrl'
    | 'tokenRatePerMinute'
    | 'revocationCheckMs'
    | 'issueServiceTokens'
    | 'maxStreamsPerUser'
  >;
  /** Desk mode's read gateway (`/service/calendar/…`, `/service/news/…`): the service's URLs. */
  gateway?: { calendarUrl: string; newsUrl: string };
  /** Desk mode's webcal feed of watched releases (calendar-feed/index.ts). */
  calendarFeed?: Pick<CalendarFeedOptions, 'calendarUrl' | 'publicUrl' | 'cacheMs'>;
  /** This node's name on the admin page (default host name:port). */
  nodeName?: string;
  /** Alerts to the desk's chat (desk-ops/desk-alerts.ts). */
  deskAlerts?: DeskAlertsConfig;
}

export interface RunningRelay {
  url: string;
  webhookUrl: string;
  port: number;
  log: EventLog;
  /** What an acknowledgement promises, for the startup line. */
  durability: string;
  metrics(): Promise<string>;
  /** Runs the desk-alert check now (it also runs on its timer). */
  checkDeskAlerts(): Promise<void>;
  close(): Promise<void>;
}

/** Ids are opaque to clients; each backend checks its own format (parseId). */
const eventId = z.string().regex(RELAY_EVENT_ID, 'must be an event id');
const pageQuery = z.object({
  after: eventId.default('0'),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be an integer 1–1000')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .default(100),
});

const HOUR_MS = 3_600_000;
/** A path segment that WHATWG URL parsing keeps byte for byte and that needs no decoding. */
const PLAIN_SEGMENT = /^(?!\.\.?$)[\w.~-]+$/;

/** Refuse a request whose body may still be arriving: answered once it is dropped (drain.ts). */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  refuseAfterDrain(req, res, (extra) =>
    sendError(res, status, error, message, { ...headers, ...extra }),
  );
}

export async function startRelay(opts: RelayOptions): Promise<RunningRelay> {
  if (!opts.secret || /[/\s?#]/.test(opts.secret))
    throw new Error('the relay secret must be a non-empty URL path segment');
  if (!opts.token) throw new Error('the relay token must not be empty');
  const now = opts.now ?? Date.now;
  const logger = opts.logger;
  // One node: every SQLite store shares one handle on relay.db (closed last, in close()).
  const relayDb = opts.redis ? null : openRelayDatabase(opts.dataDir);
  const sqlite = relayDb as Database.Database; // read only on the branches without Redis
  const events: EventLog = opts.redis
    ? await RedisEventLog.open({ ...opts.redis, now, logger })
    : new SqliteEventLog(sqlite, now, opts.commitIntervalMs ?? 0);
  const durability =
    events instanceof RedisEventLog
      ? events.describeDurability()
      : 'SQLite WAL fsynced before each ack';
  const hub = new SseHub(events, {
    heartbeatMs: opts.heartbeatMs ?? 15_000,
    maxQueuedBytes: opts.maxQueuedBytesPerClient ?? 8 * 1024 * 1024,
    logger,
  });
  const retentionMs = (opts.retentionDays ?? 7) * 86_400_000;
  const bodyBudget = new BodyBudget(opts.maxBodyBytesInFlight ?? 64 * 1024 * 1024);
  const counters = { rejected: 0, bodyBytesInFlight: () => bodyBudget.used };
  const ownMetrics = relayMetrics(events, hub, counters);
  const metrics = async () => (await ownMetrics.render()) + (await ops.metrics());

  const users: UserStore = opts.redis
    ? await RedisUserStore.open(opts.redis, now).catch(async (err: unknown) => {
        await events.close();
        throw err;
      })
    : new SqliteUserStore(sqlite, now);
  // Watch lists and feed tokens follow the users: shared in Redis, or in this node's file.
  const feedStore: FeedStore = opts.redis
    ? await RedisFeedStore.open(opts.redis, opts.dataDir, now).catch(async (err: unknown) => {
        await users.close();
        await events.close();
        throw err;
      })
    : new SqliteFeedStore(sqlite, opts.dataDir, now);
  const desk = startDesk({
    users,
    keys: null,
    authUrl: '',
    ...opts.desk,
    dataDir: opts.dataDir,
    legacyToken: opts.token,
    logger,
    now,
  });

  const feed = startCalendarFeed({
    calendarUrl: '',
    ...opts.calendarFeed,
    store: feedStore,
    users,
    tokens: () => desk.tokens(),
    logger,
    now,
  });

  // Without service URLs the gateway answers every read with the service unreachable.
  const gateway = createGateway({
    calendarUrl: opts.gateway?.calendarUrl ?? opts.calendarFeed?.calendarUrl ?? '',
    newsUrl: opts.gateway?.newsUrl ?? '',
    tokens: () => desk.tokens(),
    logger,
    now,
  });

  let nodeName = opts.nodeName ?? hostname();
  const ops = await startDeskOps({
    redis: opts.redis,
    relayDb,
    events,
    hub,
    users,
    watchlist: async (user) => (await feedStore.watchlist(user)).eventIds,
    tokens: () => desk.tokens(),
    calendarUrl: opts.calendarFeed?.calendarUrl ?? '',
    isTraderToken: async (t) =>
      (await desk.authenticate({
        headers: { authorization: `Bearer ${t}` },
      } as IncomingMessage)) !== null,
    node: () => nodeName,
    alerts: opts.deskAlerts,
    now,
    logger,
  }).catch(async (err: unknown) => {
    await desk.close(); // closes the users store
    await feed.close();
    await events.close();
    relayDb?.close();
    throw err;
  });

  async function ingest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const result = await readWebhook(req, bodyBudget);
    if (!result.ok) {
      if (result.status === 503)
        return refuse(req, res, 503, result.error, result.message, { 'retry-after': '1' });
      counters.rejected++;
      if (result.status === 413) return refuse(req, res, 413, result.error, result.message);
      return sendError(res, result.status, result.error, result.message);
    }
    try {
      await events.append(result.body, result.type, result.headers);
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) throw err;
      // The cause's message only: a client-library error can carry the command's arguments.
      const cause = err.cause instanceof Error ? err.cause.message : undefined;
      logger?.warn({ reason: err.message, cause }, 'store unavailable; webhook refused with 503');
      return sendError(
        res,
        503,
        'store_unavailable',
        `The relay cannot store webhooks now: ${err.message}`,
        { 'retry-after': '1' },
      );
    } finally {
      bodyBudget.give(result.held);
    }
    res.writeHead(204).end();
  }

  function resumePoint(req: IncomingMessage, url: URL): string | null | Error {
    const header = req.headers['last-event-id'];
    const raw =
      typeof header === 'string' && header !== '' ? header : url.searchParams.get('after');
    if (raw === null) return null;
    const parsed = eventId.safeParse(raw);
    const id = parsed.success ? events.parseId(parsed.data) : null;
    return id ?? new Error('Last-Event-ID / after must be an event id from this relay, or 0');
  }

  async function page(res: ServerResponse, url: URL): Promise<void> {
    const q = pageQuery.safeParse(Object.fromEntries(url.searchParams));
    if (!q.success)
      return sendError(
        res,
        400,
        'invalid_request',
        'after must be an event id and limit an integer 1–1000',
      );
    const { limit } = q.data;
    const after = events.parseId(q.data.after);
    if (after === null)
      return sendError(
        res,
        400,
        'invalid_request',
        'after must be an event id from this relay, or 0',
      );
    const point = await events.resume(after);
    const list = await events.after(point.from, limit + 1, PAGE_BYTES);
    const items = list.slice(0, limit);
    const more =
      list.length > limit || (await events.after(items.at(-1)?.id ?? point.from, 1)).length > 0;
    // Bodies are spliced in as stored (valid JSON, checked at ingest): no parse and
    // re-serialise per event, and no recursion however a body is shaped.
    const parts = items.map(
      (e) => `{"id":"${e.id}","receivedAt":${e.receivedAt},"body":${e.body.toString('utf8')}}`,
    );
    const text =
      `{"events":[${parts.join(',')}],"nextAfter":"${items.at(-1)?.id ?? point.from}",` +
      `"hasMore":${more},"oldestId":${JSON.stringify(point.oldestId)},` +
      `"reset":${point.gap}}`;
    sendJsonText(res, 200, text);
  }

  function hook(req: IncomingMessage, res: ServerResponse, segment: string): Promise<void> | void {
    if (!constantTimeEqual(segment, opts.secret) && !desk.isRotatedSecret(segment))
      return refuse(req, res, 404, 'not_found', 'Not found');
    if (req.method !== 'POST')
      return refuse(req, res, 405, 'method_not_allowed', 'Use POST', { allow: 'POST' });
    return ingest(req, res);
  }

  function unauthorized(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    sendError(res, 401, 'unauthorized', 'Missing, wrong or revoked bearer token', {
      'www-authenticate': 'Bearer',
    });
  }

  function route(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const raw = req.url ?? '/';
    // The webhook hot path: a plain `/hooks/<segment>` that URL parsing would leave as is
    // (no query, escapes, dot segments or backslashes) skips building a URL.
    if (raw.startsWith('/hooks/') && PLAIN_SEGMENT.test(raw.slice(7)))
      return hook(req, res, raw.slice(7));
    // URL parsing reads "\" as "/" (`/x\..\metrics` is /metrics) where proxies do not:
    // refuse it, so a proxy's allow-list for /metrics sees the path the relay serves.
    if (raw.includes('\\'))
      return refuse(req, res, 400, 'invalid_path', 'Backslashes are not allowed in the path');
    const url = new URL(raw, 'http://relay');
    const path = url.pathname;
    if (path.startsWith('/hooks/'))
      return hook(req, res, decodePathSegment(path.slice('/hooks/'.length)));
    if (feed.handles(path)) return feed.route(req, res, path, () => desk.authenticate(req));
    if (gateway.handles(path))
      return gateway.route(req, res, raw.split('?')[0] as string, url.searchParams, () =>
        desk.authenticate(req),
      );
    // Service tokens open the whole account (webhooks included): off unless opted in.
    if (path === '/token' && !opts.desk?.issueServiceTokens) {
      req.resume();
      return sendError(res, 404, 'not_found', 'Not found');
    }
    if (ops.handles(path)) return ops.route(req, res, path, () => desk.authenticate(req));
    const known = ['/healthz', '/metrics', '/events', '/events/page', '/token'];
    if (!known.includes(path)) return sendError(res, 404, 'not_found', 'Not found');
    if (path !== '/token') {
      req.resume();
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendError(res, 405, 'method_not_allowed', 'Use GET', { allow: 'GET' });
    }
    if (path === '/healthz') {
      const h = events.health();
      return sendJson(res, h.ok ? 200 : 503, {
        ok: h.ok,
        backend: events.backend,
        lastId: events.lastId(),
        ...(h.reason === undefined ? {} : { reason: h.reason }),
        ...(h.durability === undefined ? {} : { durability: h.durability }),
      });
    }
    if (path === '/metrics')
      return metrics().then((text) => {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
        res.end(text);
      });
    return authorized(req, res, url, path);
  }

  /** /token, /events and /events/page: for a user of the desk (or the legacy token). */
  async function authorized(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
  ): Promise<void> {
    let user: string | null;
    try {
      user = await desk.authenticate(req);
    } catch (err) {
      logger?.warn({ err }, 'the user store is unavailable; request refused with 503');
      req.resume();
      return sendError(res, 503, 'store_unavailable', 'The relay cannot check tokens now', {
        'retry-after': '1',
      });
    }
    if (!user) return unauthorized(req, res);
    if (path === '/token') return desk.token(req, res, user);
    if (path === '/events/page') return page(res, url);
    const after = resumePoint(req, url);
    if (after instanceof Error) return sendError(res, 400, 'invalid_request', after.message);
    // HEAD: the stream's headers, no stream (and no client kept open).
    if (req.method === 'HEAD') return void res.writeHead(200, SSE_HEADERS).end();
    if (!desk.trackStream(user, res))
      return sendError(
        res,
        429,
        'too_many_streams',
        `${user} already has ${desk.maxStreamsPerUser} streams open on this relay: close one (or quit the app on another machine) and try again`,
        { 'retry-after': '30' },
      );
    if (!ops.beforeStream(req, res, user)) return;
    return hub.serve(res, after);
  }

  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => route(req, res))
      .catch((err: unknown) => {
        // A client that hangs up mid-body lands here too: nothing was acknowledged.
        logger?.warn({ err: (err as Error).message ?? String(err) }, 'request failed');
        if (!res.headersSent)
          sendError(res, 500, 'server_error', 'The relay could not store the webhook');
        else res.destroy();
      });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  server.keepAliveTimeout = 30_000;
  // requestTimeout (Node's default 300 s) bounds receiving a request, not an SSE response.

  const trim = () =>
    events.trim(retentionMs).then(
      (removed) => {
        if (removed > 0) logger?.info({ removed }, 'retention trimmed old webhooks');
      },
      (err: unknown) => logger?.warn({ err }, 'retention trim failed; retrying in an hour'),
    );
  await trim();
  const trimTimer = setInterval(trim, HOUR_MS);
  trimTimer.unref();

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  if (opts.nodeName === undefined) nodeName = `${nodeName}:${port}`;
  // On the admin page from the start, not only after the first timed report.
  ops.reportNode().catch((err: unknown) => logger?.debug({ err }, 'node report failed'));
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    webhookUrl: `${url}/hooks/${opts.secret}`,
    port,
    log: events,
    durability,
    metrics,
    checkDeskAlerts: () => ops.checkAlerts(),
    async close() {
      clearInterval(trimTimer);
      hub.closeAll();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await events.close();
      await desk.close();
      await feed.close();
      await ops.close();
      relayDb?.close();
    },
  };
}
