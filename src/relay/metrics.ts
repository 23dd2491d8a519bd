/** Prometheus text exposition of the relay's counters and gauges. */
import type { EventLog } from './event-log.js';
import type { SseHub } from './sse-hub.js';

export interface RelayCounters {
  rejected: number;
}

function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) / 1000;
}

export function renderMetrics(log: EventLog, hub: SseHub, counters: RelayCounters): string {
  const lat = [...log.commitLatencies].sort((a, b) => a - b);
  const sum = lat.reduce((a, b) => a + b, 0) / 1000;
  const { rows, bytes } = log.stats();
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
      'summary',
      'Group-commit latency (recent commits).',
      [
        `macrobell_relay_commit_latency_seconds{quantile="0.5"} ${quantile(lat, 0.5)}`,
        `macrobell_relay_commit_latency_seconds{quantile="0.99"} ${quantile(lat, 0.99)}`,
        `macrobell_relay_commit_latency_seconds_sum ${sum}`,
        `macrobell_relay_commit_latency_seconds_count ${lat.length}`,
      ],
    ),
    ...metric('macrobell_relay_log_rows', 'gauge', 'Rows in the log.', [
      `macrobell_relay_log_rows ${rows}`,
    ]),
    ...metric('macrobell_relay_log_bytes', 'gauge', 'Bytes of stored bodies.', [
      `macrobell_relay_log_bytes ${bytes}`,
    ]),
    '',
  ].join('\n');
}
