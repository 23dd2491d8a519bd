/** The alerts engine (prints, revisions, news, reminders) and the news-window alerts. */
import { realTimers } from '../../shared/timers.js';
import { AlertsEngine, type AlertsEngineOptions } from '../alerts/index.js';
import { Acknowledgements } from '../alerts/acknowledgements.js';
import { NewsWindowAlerts } from '../notify/news-window-alerts.js';
import type { Store } from '../store/index.js';
import type { CoreBasics } from './basics.js';

const COVERED_SINCE_KEY = 'alerts.coveredSince';

export type AlertDelivery = Pick<
  AlertsEngineOptions,
  'coalesceMs' | 'settleMs' | 'maxPerMinute'
> & {
  /** How long a surface has to acknowledge a notification before the host falls back. */
  ackDeadlineMs?: number;
};

/** When this store started watching the calendar (set once, on its first run). */
function coverageStart(
  store: Pick<Store, 'getSyncState' | 'setSyncState' | 'transaction'>,
  now: number,
): number {
  const stored = Number(store.getSyncState(COVERED_SINCE_KEY));
  if (Number.isFinite(stored) && stored > 0) return stored;
  store.transaction(() => store.setSyncState(COVERED_SINCE_KEY, String(now)));
  return now;
}

export function createAlerting(basics: CoreBasics, delivery?: AlertDelivery) {
  const { store, now, effective, logger } = basics;
  // Prints from before this store first ran are history, not news (alerts/decide.ts newPrint).
  const coveredSince = coverageStart(store, now());
  const { ackDeadlineMs, ...grouping } = delivery ?? {};
  const alerts = new AlertsEngine({
    ...grouping,
    store,
    coveredSince: () => coveredSince,
    now,
    rules: () => effective().alertRules,
    timeZone: () => effective().timeZone,
    hourCycle: () => effective().hourCycle,
    onError: (err) => logger.warn({ err }, 'alerts: a notification could not be delivered'),
  });
  const newsWindowAlerts = new NewsWindowAlerts({
    settings: () => effective().newsWindow,
    upcoming: (q) => store.upcoming(q),
    timeZone: () => effective().timeZone,
    hourCycle: () => effective().hourCycle,
    now,
    timers: realTimers,
    onError: (err) => logger.warn({ err }, 'news windows: an alert failed'),
  });
  const acks = new Acknowledgements({
    store,
    now,
    timers: realTimers,
    ...(ackDeadlineMs !== undefined ? { deadlineMs: ackDeadlineMs } : {}),
    onError: (err) => logger.warn({ err }, 'alerts: a receipt could not be stamped'),
  });
  return { alerts, newsWindowAlerts, acks };
}
