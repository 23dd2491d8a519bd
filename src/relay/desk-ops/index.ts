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

export interface DeskOpsOptions {
  redisUrl?: string;
  events: EventLog;
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
    handles: (path) => path === '/presence',
    async route(req, res, _path, authenticate) {
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
    },
  };
}
