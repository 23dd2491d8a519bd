/**
 * This node's figures for the admin page — streams, ingest rate, store health — published
 * to the presence store on start and every few seconds, so every node shows every node.
 */
import type { Logger } from 'pino';
import type { EventLog } from '../../log/event-log.js';
import type { SseHub } from '../../stream/sse-hub.js';
import type { PresenceStore } from './presence-store.js';

export function startNodeReports(opts: {
  events: EventLog;
  hub: SseHub;
  presence: PresenceStore;
  node: () => string;
  /** Where the other nodes reach this one (null until it listens). */
  nodeUrl?: () => string | null;
  now: () => number;
  everyMs: number;
  logger?: Logger;
}) {
  const { events, now } = opts;
  let last = { at: now(), ingested: events.ingested };
  const report = async () => {
    const t = now();
    const seconds = Math.max(0.001, (t - last.at) / 1000);
    const rate = (events.ingested - last.ingested) / seconds;
    last = { at: t, ingested: events.ingested };
    const h = events.health();
    const url = opts.nodeUrl?.() ?? null;
    await opts.presence.reportNode({
      node: opts.node(),
      streams: opts.hub.size,
      ingestPerSecond: Math.round(rate * 100) / 100,
      storeOk: h.ok,
      storeReason: h.reason ?? null,
      durability: h.durabilityUnverified ?? h.durability ?? null,
      reportedAt: t,
      ...(url === null ? {} : { url }),
    });
  };
  const timer = setInterval(() => {
    report().catch((err: unknown) => opts.logger?.debug({ err }, 'node report failed'));
  }, opts.everyMs);
  timer.unref();
  return { report, stop: () => clearInterval(timer) };
}
