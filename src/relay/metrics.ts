/** Prometheus text exposition of the relay's counters and gauges. */
import type { EventLog } from './event-log.js';
import type { SseHub } from './sse-hub.js';

export interface RelayCounters {
  rejected: number;
  bodyBytesInFlight: () => number;
}

export async function renderMetrics(
  log: EventLog,
  hub: SseHub,
  counters: RelayCounters,
): Promise<string> {
  // Row counts need the store: while it is away, the counters still answer.
  const stats = await log.stats().catch(() => null);
  const h = log.health();
  const metric = (name: string, type: string, help: string, lines: string[]) => [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} ${type}`,
    ...lines,
  ];
  return [
    ...metric('macrobell_relay_ingested_total', 'counter', 'Webhooks stored and acknowledged.', [
      `macrobell_relay_ingested_total ${log.ingested}`,
    ]),
    ...metric('macrobell_relay_rejected_total', 'counter', 'Webhooks refused as malformed.', [
      `macrobell_relay_rejected_total ${counters.rejected}`,
    ]),
    ...metric(
      'macrobell_relay_store_failures_total',
      'counter',
      'Webhooks refused because the store could not take them (503, or 500 on a failed commit; the service retries).',
      [`macrobell_relay_store_failures_total ${log.storeFailures}`],
    ),
    ...metric(
      'macrobell_relay_body_bytes_in_flight',
      'gauge',
      'Webhook body bytes being read or stored now (bounded; past it webhooks get 503 busy).',
      [`macrobell_relay_body_bytes_in_flight ${counters.bodyBytesInFlight()}`],
    ),
    ...metric('macrobell_relay_store_up', 'gauge', '1 while the store takes writes.', [
      `macrobell_relay_store_up{backend="${log.backend}"} ${h.ok ? 1 : 0}`,
    ]),
    ...metric('macrobell_relay_streamed_total', 'counter', 'Events written to SSE clients.', [
      `macrobell_relay_streamed_total ${hub.streamed}`,
    ]),
    ...metric(
      'macrobell_relay_slow_disconnects_total',
      'counter',
      'SSE clients cut because their backlog passed the cap.',
      [`macrobell_relay_slow_disconnects_total ${hub.slowDisconnects}`],
    ),
    ...metric(
      'macrobell_relay_fanout_rounds_total',
      'counter',
      'Fan-out rounds (one write per SSE client; commit batches coalesced).',
      [`macrobell_relay_fanout_rounds_total ${hub.fanoutRounds}`],
    ),
    ...metric('macrobell_relay_connected_clients', 'gauge', 'SSE clients connected now.', [
      `macrobell_relay_connected_clients ${hub.size}`,
    ]),
    ...metric(
      'macrobell_relay_commit_latency_seconds',
      'histogram',
      'Time from a commit batch (SQLite) or append (Redis) starting to it being durable.',
      log.commitLatency.lines('macrobell_relay_commit_latency_seconds'),
    ),
    ...(stats
      ? metric('macrobell_relay_log_rows', 'gauge', 'Events in the log.', [
          `macrobell_relay_log_rows ${stats.rows}`,
        ])
      : []),
    ...(stats?.bytes != null
      ? metric('macrobell_relay_log_bytes', 'gauge', 'Bytes of stored bodies.', [
          `macrobell_relay_log_bytes ${stats.bytes}`,
        ])
      : []),
    '',
  ].join('\n');
}
