/** Prometheus lines for desk operations, appended to the relay's /metrics. */
import type { EventLog } from '../event-log.js';
import { Histogram } from '../histogram.js';
import type { DeskAlertCounters } from './desk-alerts.js';
import { isConnected, type PresenceStore } from './presence-store.js';
import type { ReplayCounters } from './replay.js';

/** Applied-lag buckets: 0.1 s to 30 min. */
export const APPLIED_LAG_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800] as const;

export function appliedLagHistogram(): Histogram {
  return new Histogram(APPLIED_LAG_BUCKETS);
}

/** Observes how far behind the head a reported applied id was (the first event after it). */
export function lagObserver(events: EventLog, lag: Histogram, now: () => number) {
  return (appliedId: string) => {
    events.after(appliedId, 1).then(
      ([next]) => lag.observe(next ? Math.max(0, (now() - next.receivedAt) / 1000) : 0),
      () => undefined,
    );
  };
}

export async function renderOpsMetrics(opts: {
  presence: PresenceStore;
  lag: Histogram;
  alerts: DeskAlertCounters;
  replays: ReplayCounters;
  now: number;
}): Promise<string> {
  // Desk-wide from the shared store; while it is away the line is left out, not zero.
  const list = await opts.presence.list().catch(() => null);
  const metric = (name: string, type: string, help: string, lines: string[]) => [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} ${type}`,
    ...lines,
  ];
  const alertLines = Object.entries(opts.alerts.posted).map(([k, n]) => {
    const [kind, phase] = k.split(':');
    return `macrobell_relay_desk_alerts_total{kind="${kind}",phase="${phase}"} ${n}`;
  });
  return [
    ...(list
      ? metric(
          'macrobell_relay_desktops_connected',
          'gauge',
          'Desktops with an open stream on any node of the desk (presence).',
          [
            `macrobell_relay_desktops_connected ${list.filter((p) => isConnected(p, opts.now)).length}`,
          ],
        )
      : []),
    ...metric(
      'macrobell_relay_applied_lag_seconds',
      'histogram',
      "How far behind the stream's head a desktop was when it reported what it applied.",
      opts.lag.lines('macrobell_relay_applied_lag_seconds'),
    ),
    ...metric(
      'macrobell_relay_desk_alerts_total',
      'counter',
      'Alerts and recoveries this node posted to the desk chat.',
      alertLines,
    ),
    ...metric(
      'macrobell_relay_missed_windows_total',
      'counter',
      'HIGH releases that passed while a watching trader would have missed them.',
      [`macrobell_relay_missed_windows_total ${opts.alerts.missedWindows}`],
    ),
    ...metric(
      'macrobell_relay_desk_alert_post_failures_total',
      'counter',
      'Desk chat posts that failed (the webhook refused or was unreachable).',
      [`macrobell_relay_desk_alert_post_failures_total ${opts.alerts.postFailures}`],
    ),
    ...metric(
      'macrobell_relay_replays_total',
      'counter',
      'Replays of a time range to one trader that this node was asked for (relay replay).',
      [`macrobell_relay_replays_total ${opts.replays.requests}`],
    ),
    ...metric(
      'macrobell_relay_replayed_events_total',
      'counter',
      "Replayed events this node wrote to desktops' streams (one per event per desktop).",
      [`macrobell_relay_replayed_events_total ${opts.replays.eventsSent}`],
    ),
    '',
  ].join('\n');
}
