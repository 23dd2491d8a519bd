/**
 * Desk operations' metrics, appended to the relay's /metrics: a prom-client Registry per
 * desk-ops instance (so per relay), with values read at scrape time.
 */
import { Counter, Registry, type Histogram } from 'prom-client';
import { latencyHistogram, scrapedCounter, scrapedGauge } from '../scraped-metrics.js';
import { BoundedReading } from '../bounded-reading.js';
import type { LogPositions } from './replay/log-positions.js';
import type { DeskAlertCounters } from './alerts/desk-alerts.js';
import { isConnected, type PresenceStore } from './presence/presence-store.js';
import type { ReplayCounters } from './replay/replay.js';

/** Applied-lag buckets: 0.1 s to 30 min. */
const APPLIED_LAG_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800] as const;

export function appliedLagHistogram(): Histogram {
  return latencyHistogram(
    'macrobell_relay_applied_lag_seconds',
    "How far behind the stream's head a desktop was when it reported what it applied.",
    APPLIED_LAG_BUCKETS,
  );
}

/** Observes how far behind the head a reported applied id was (the first event after it). */
export function lagObserver(positions: LogPositions, lag: Histogram, now: () => number) {
  return (appliedId: string) => {
    lag.observe(positions.lag(appliedId, now()).seconds);
  };
}

function registerReplays(registry: Registry, replays: ReplayCounters): void {
  scrapedCounter(
    registry,
    'macrobell_relay_replays_total',
    'Replays of a time range to one trader that this node was asked for (relay replay).',
    () => replays.requests,
  );
  scrapedCounter(
    registry,
    'macrobell_relay_replayed_events_total',
    "Replayed events this node wrote to desktops' streams (one per event per desktop).",
    () => replays.eventsSent,
  );
}

function registerAlerts(registry: Registry, alerts: DeskAlertCounters): void {
  new Counter({
    name: 'macrobell_relay_desk_alerts_total',
    help: 'Alerts and recoveries this node posted to the desk chat.',
    labelNames: ['kind', 'phase'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [k, n] of Object.entries(alerts.posted)) {
        const [kind = '', phase = ''] = k.split(':');
        this.inc({ kind, phase }, n);
      }
    },
  });
  scrapedCounter(
    registry,
    'macrobell_relay_missed_windows_total',
    'HIGH releases that passed while a watching trader would have missed them.',
    () => alerts.missedWindows,
  );
  scrapedCounter(
    registry,
    'macrobell_relay_desk_alert_checks_total',
    "Desk alert checks this node ran to the end (each reads the desk's presence anew).",
    () => alerts.checks,
  );
  scrapedCounter(
    registry,
    'macrobell_relay_desk_alert_post_failures_total',
    'Desk chat posts that failed (the webhook refused or was unreachable).',
    () => alerts.postFailures,
  );
}

/** render() is desk operations' part of /metrics. */
export function opsMetrics(opts: {
  presence: PresenceStore;
  lag: Histogram;
  alerts: DeskAlertCounters;
  replays: ReplayCounters;
  now: () => number;
}): { render(): Promise<string> } {
  const registry = new Registry();
  // Desk-wide from the shared store, read once per scrape but never waited on for long (a
  // frozen link): the last known count meanwhile, marked stale. None known yet: no sample.
  const reading = new BoundedReading(() => opts.presence.list());
  let connected: number | null = null;
  scrapedGauge(
    registry,
    'macrobell_relay_desktops_connected',
    'Desktops with an open stream on any node of the desk (presence).',
    () => connected,
  );
  scrapedGauge(
    registry,
    'macrobell_relay_desktops_connected_stale',
    '1 while desktops_connected is the last known count: the store did not answer in time.',
    () => (reading.stale ? 1 : 0),
  );
  registry.registerMetric(opts.lag);
  registerAlerts(registry, opts.alerts);
  registerReplays(registry, opts.replays);
  return {
    async render() {
      const list = await reading.get();
      const now = opts.now();
      connected = list ? list.filter((p) => isConnected(p, now)).length : null;
      return registry.metrics();
    },
  };
}
