/**
 * The relay server: `POST /hooks/{secret}` stores a webhook and answers 204 only after
 * the commit; `GET /events` streams stored webhooks over SSE with Last-Event-ID resume;
 * `GET /events/page` pages them as JSON; `/healthz` and `/metrics` for operators; and
 * desk mode's routes. The routes are modules under routes/ (routes/handler.ts has the
 * table); this file wires the stores and parts together and listens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { logUnexpectedErrors } from '../node/log/unexpected-errors.js';
import type { CalendarFeedOptions } from './calendar-feed/index.js';
import { startDeskParts } from './desk/desk-parts.js';
import type { DeskOptions } from './desk/desk.js';
import type { DeskAlertsConfig } from './desk-ops/index.js';
import type { EventLog } from './log/event-log.js';
import { BodyBudget } from './ingest/ingest.js';
import { relayMetrics } from './metrics.js';
import { startRetention } from './log/retention.js';
import type { RelayContext } from './routes/context.js';
import { relayHandler } from './routes/handler.js';
import { SseHub } from './stream/sse-hub.js';
import { watchUnknownSecrets } from './ingest/unknown-secrets.js';
import { MemoryEpisodeGate, RedisEpisodeGate } from './ingest/episode-gate.js';
import { chatPoster } from './desk-ops/alerts/chat-post.js';
import { openStores, type RelayRedis } from './stores.js';
import { localRelayUrl, writeRelayUrl } from './desk-ops/relay-url-file.js';
import { reachableNodeUrl } from './desk-ops/presence/silent-node.js';

export interface RelayOptions {
  dataDir: string;
  /** The unguessable path segment of the webhook URL. */
  secret: string;
  /** Older webhook secrets still accepted during a rotation (`MACROBELL_RELAY_SECRET=new,old`). */
  retiringSecrets?: string[];
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
  redis?: RelayRedis;
  /** Desk mode: provider keys, service URL and /token rate (see desk.ts). */
  desk?: Pick<
    DeskOptions,
    | 'keys'
    | 'authUrl'
    | 'tokenRatePerMinute'
    | 'revocationCheckMs'
    | 'issueServiceTokens'
    | 'maxStreamsPerUser'
    | 'maxLegacyStreams'
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

function checkOptions(opts: RelayOptions): void {
  for (const secret of [opts.secret, ...(opts.retiringSecrets ?? [])])
    if (!secret || /[/\s?#,]/.test(secret))
      throw new Error('the relay secret must be a non-empty URL path segment');
  if (!opts.token) throw new Error('the relay token must not be empty');
}

/** What ingest counts for /metrics; an unknown secret is also told to the desk's chat. */
async function ingestCounters(
  opts: RelayOptions,
  bodyBudget: BodyBudget,
  node: () => string,
  now: () => number,
) {
  const quietMs = opts.deskAlerts?.unknownSecretQuietMs ?? 10 * 60_000;
  // A Redis desk posts each episode once, whichever nodes refuse its deliveries.
  const gate = opts.redis
    ? await RedisEpisodeGate.open(opts.redis, quietMs, opts.logger)
    : new MemoryEpisodeGate(quietMs);
  const unknownSecrets = watchUnknownSecrets({
    node,
    post: chatPoster(opts.deskAlerts?.webhookUrl ?? null, () => undefined, opts.logger),
    quietMs,
    gate,
    now,
    logger: opts.logger,
  });
  const counters = {
    rejected: 0,
    bodyBytesInFlight: () => bodyBudget.used,
    unknownSecret: () => unknownSecrets.count,
  };
  const close = async () => {
    unknownSecrets.stop();
    await gate.close();
  };
  return { unknownSecrets, counters, close };
}

/** Listens on host:port (0 = any free port): the URL clients use, and the port bound. */
async function listen(server: Server, host: string, port: number) {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, port: bound };
}

export async function startRelay(opts: RelayOptions): Promise<RunningRelay> {
  checkOptions(opts);
  const now = opts.now ?? Date.now;
  const logger = opts.logger;
  // A listener that throws with no handler of its own: into the relay's log, named.
  const stopLoggingUnexpected = logger ? logUnexpectedErrors(logger) : () => undefined;
  const stores = await openStores({ ...opts, now });
  const { events } = stores;
  const hub = new SseHub(events, {
    heartbeatMs: opts.heartbeatMs ?? 15_000,
    maxQueuedBytes: opts.maxQueuedBytesPerClient ?? 8 * 1024 * 1024,
    logger,
  });
  let nodeName = opts.nodeName ?? hostname();
  let nodeUrl: string | null = null;
  const parts = await startDeskParts(opts, stores, hub, {
    node: () => nodeName,
    nodeUrl: () => nodeUrl,
    now,
    logger,
  });
  const bodyBudget = new BodyBudget(opts.maxBodyBytesInFlight ?? 64 * 1024 * 1024);
  const ingest = await ingestCounters(opts, bodyBudget, () => nodeName, now);
  const { unknownSecrets, counters } = ingest;
  const ownMetrics = relayMetrics(events, hub, counters);
  // Both at once: each waits on the store at most METRICS_READ_WAIT_MS (bounded-reading.ts).
  const metrics = async () =>
    (await Promise.all([ownMetrics.render(), parts.ops.metrics()])).join('');
  const ctx: RelayContext = {
    ...parts,
    secret: opts.secret,
    retiringSecrets: opts.retiringSecrets ?? [],
    unknownSecrets,
    events,
    hub,
    bodyBudget,
    counters,
    metrics,
    issueServiceTokens: opts.desk?.issueServiceTokens === true,
    logger,
  };
  const server = createServer(relayHandler(ctx));
  server.on('clientError', (_err, socket) => socket.destroy());
  server.keepAliveTimeout = 30_000;
  // requestTimeout (Node's default 300 s) bounds receiving a request, not an SSE response.
  const stopRetention = await startRetention(
    events,
    (opts.retentionDays ?? 7) * 86_400_000,
    logger,
  );
  const { url, port } = await listen(server, opts.host ?? '127.0.0.1', opts.port ?? 0);
  if (opts.nodeName === undefined) nodeName = `${nodeName}:${port}`;
  nodeUrl = reachableNodeUrl(opts.host ?? '127.0.0.1', port, hostname());
  // For `relay status / log / replay --data DIR` on this machine.
  const urlNotWritten = writeRelayUrl(opts.dataDir, localRelayUrl(opts.host ?? '127.0.0.1', port));
  if (urlNotWritten)
    logger?.warn({ err: urlNotWritten }, 'could not record the listen URL for `relay status`');
  // On the admin page from the start, not only after the first timed report.
  parts.ops.reportNode().catch((err: unknown) => logger?.debug({ err }, 'node report failed'));
  return {
    url,
    webhookUrl: `${url}/hooks/${opts.secret}`,
    port,
    log: events,
    durability: stores.durability,
    metrics,
    checkDeskAlerts: () => parts.ops.checkAlerts(),
    async close() {
      stopRetention();
      hub.closeAll();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await events.close();
      await parts.desk.close();
      await parts.feed.close();
      await parts.ops.close();
      await ingest.close();
      stores.relayDb?.close();
      stopLoggingUnexpected();
    },
  };
}
