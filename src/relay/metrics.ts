/**
 * The relay's /metrics: its counters and gauges and the commit-latency histogram, in a
 * prom-client Registry of its own (desk operations add theirs: desk-ops/ops-metrics.ts).
 * Names, labels and types are the ones docs/relay.md lists.
 */
import { Gauge, Registry, type Histogram } from 'prom-client';
import { BoundedReading } from './bounded-reading.js';
import type { EventLog } from './log/event-log.js';
import { latencyHistogram, scrapedCounter, scrapedGauge } from './scraped-metrics.js';
import type { SseHub } from './stream/sse-hub.js';

export interface RelayCounters {
  rejected: number;
  bodyBytesInFlight: () => number;
  unknownSecret: () => number;
}

/** Commit latency buckets: 0.25 ms to 2.5 s. */
const COMMIT_BUCKETS = [
  0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
] as const;

/** The histogram an event log observes once per commit batch (SQLite) or append (Redis). */
export function commitLatencyHistogram(): Histogram {
  return latencyHistogram(
    'macrobell_relay_commit_latency_seconds',
    'Time from a commit batch (SQLite) or append (Redis) starting to it being durable.',
    COMMIT_BUCKETS,
  );
}

function registerIngest(registry: Registry, log: EventLog, counters: RelayCounters): void {
  const count = (name: string, help: string, read: () => number) =>
    scrapedCounter(registry, name, help, read);
  count('macrobell_relay_ingested_total', 'Webhooks stored and acknowledged.', () => log.ingested);
  count(
    'macrobell_relay_rejected_total',
    'Webhooks refused as malformed.',
    () => counters.rejected,
  );
  count(
    'macrobell_relay_hooks_unknown_secret_total',
    'Webhook deliveries refused (404) because their URL carries no secret this node accepts.',
    counters.unknownSecret,
  );
  count(
    'macrobell_relay_store_failures_total',
    'Webhooks refused because the store could not take them (503, or 500 on a failed commit; the service retries).',
    () => log.storeFailures,
  );
  scrapedGauge(
    registry,
    'macrobell_relay_body_bytes_in_flight',
    'Webhook body bytes being read or stored now (bounded; past it webhooks get 503 busy).',
    counters.bodyBytesInFlight,
  );
  new Gauge({
    name: 'macrobell_relay_store_up',
    help: '1 while the store takes writes.',
    labelNames: ['backend'],
    registers: [registry],
    collect() {
      this.set({ backend: log.backend }, log.health().ok ? 1 : 0);
    },
  });
}

function registerFanout(registry: Registry, hub: SseHub): void {
  const count = (name: string, help: string, read: () => number) =>
    scrapedCounter(registry, name, help, read);
  count('macrobell_relay_streamed_total', 'Events written to SSE clients.', () => hub.streamed);
  count(
    'macrobell_relay_slow_disconnects_total',
    'SSE clients cut because their backlog passed the cap.',
    () => hub.slowDisconnects,
  );
  count(
    'macrobell_relay_store_cut_off_disconnects_total',
    'SSE streams ended because this node could not reach its store (the desktops moved on).',
    () => hub.cutOffDisconnects,
  );
  count(
    'macrobell_relay_fanout_rounds_total',
    'Fan-out rounds (one write per SSE client; commit batches coalesced).',
    () => hub.fanoutRounds,
  );
  scrapedGauge(
    registry,
    'macrobell_relay_connected_clients',
    'SSE clients connected now.',
    () => hub.size,
  );
}

/** The relay's registry; render() is the /metrics text (desk operations append theirs). */
export function relayMetrics(
  log: EventLog,
  hub: SseHub,
  counters: RelayCounters,
): { render(): Promise<string> } {
  const registry = new Registry();
  registerIngest(registry, log, counters);
  registerFanout(registry, hub);
  registry.registerMetric(log.commitLatency);
  // Row counts need the store: read once per scrape, never waited on for long (a frozen
  // link); the last known counts meanwhile, marked stale. None known yet: no sample.
  const reading = new BoundedReading(() => log.stats());
  let stats: { rows: number; bytes: number | null } | null = null;
  scrapedGauge(
    registry,
    'macrobell_relay_log_rows',
    'Events in the log.',
    () => stats?.rows ?? null,
  );
  scrapedGauge(
    registry,
    'macrobell_relay_log_bytes',
    'Bytes of stored bodies.',
    () => stats?.bytes ?? null,
  );
  scrapedGauge(
    registry,
    'macrobell_relay_log_stats_stale',
    '1 while log_rows and log_bytes are the last known counts: the store did not answer in time.',
    () => (reading.stale ? 1 : 0),
  );
  return {
    async render() {
      stats = await reading.get();
      return registry.metrics();
    },
  };
}
