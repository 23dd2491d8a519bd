/**
 * The one publish point: what a committed transaction changed and alerted
 * (`applier.onDidCommit`) goes to alert delivery, the status and the window; the news
 * windows' notices go to the same delivery (`alerts.notice`); what delivery sends
 * (`alerts.onDidNotify`) goes to the hosts' `notification` push — each subscription once,
 * each kept to be ended at stop.
 */
import type { DomainChange } from '../../shared/domain.js';
import { DisposableStore, toDisposable } from '../../shared/event.js';
import type { TokenManager } from '../auth/index.js';
import type { AlertsEngine } from '../alerts/index.js';
import type { Acknowledgements } from '../alerts/acknowledgements.js';
import type { WatchlistSync } from '../desk/watchlist-sync.js';
import type { NewsWindowAlerts } from '../notify/news-window-alerts.js';
import type { ChangeApplier } from '../sync/applier.js';
import type { SyncEngine } from '../sync/engine.js';
import type { CorePushes } from './bus.js';
import type { StatusReporter } from './status.js';

/** Changes that move releases in time: bursts and news windows are planned again. */
const reshapesCalendar = (changes: DomainChange[]) =>
  changes.some(
    (c) => c.kind === 'rescheduled' || c.kind === 'eventDateAdded' || c.kind === 'eventDateRemoved',
  );

export interface PublishParts {
  bus: CorePushes;
  applier: Pick<ChangeApplier, 'onDidCommit'>;
  alerts: Pick<AlertsEngine, 'dispatch' | 'notice' | 'onDidRecord' | 'onDidNotify'>;
  newsWindowAlerts: Pick<NewsWindowAlerts, 'onDidNotify' | 'replan'>;
  acks: Pick<Acknowledgements, 'sent' | 'onDidMiss' | 'stop'>;
  sync: Pick<SyncEngine, 'replanBursts'>;
  watchlist: Pick<WatchlistSync, 'relayConnected'>;
  status: Pick<StatusReporter, 'push'>;
  tokens: Pick<TokenManager, 'onStateChange'>;
}

export function publishCore(p: PublishParts): DisposableStore {
  const { pushes, statusChanged } = p.bus;
  const subscriptions = new DisposableStore();
  const on = subscriptions.add.bind(subscriptions);
  on(p.bus.onStatusWanted(() => p.status.push()));
  on(toDisposable(p.tokens.onStateChange(statusChanged))); // a token refreshed or refused
  on(
    p.applier.onDidCommit(({ changes, alerts }) => {
      // Delivery first: its notification follows the alert rows (announced by dispatch).
      if (alerts.length > 0) p.alerts.dispatch(alerts);
      if (changes.length > 0) pushes.changes.fire(changes);
      if (reshapesCalendar(changes)) {
        p.sync.replanBursts();
        p.newsWindowAlerts.replan();
      }
    }),
  );
  on(
    p.alerts.onDidRecord((record) => {
      pushes.alert.fire(record);
      statusChanged(); // the unread count
    }),
  );
  on(
    p.alerts.onDidNotify((n) => {
      // Sent, not yet shown: a surface's acknowledgement stamps the receipt (acknowledgements.ts).
      pushes.notification.fire(p.acks.sent(n));
      statusChanged();
    }),
  );
  // A news window's notice obeys the trader's rules (pause, quiet hours, the rate limit) as
  // every alert does: it is sent by delivery, and so reaches the hosts as an alert's does.
  on(p.newsWindowAlerts.onDidNotify((n) => p.alerts.notice(n)));
  on(
    p.acks.onDidMiss((n) => {
      pushes.fallback.fire(n); // no surface showed it in time: the host's own
      statusChanged(); // the latency panel's unacknowledged count
    }),
  );
  on(toDisposable(() => p.acks.stop()));
  on(pushes.settings.event(() => p.newsWindowAlerts.replan()));
  on(pushes.status.event((s) => p.watchlist.relayConnected(s.relay?.connected === true)));
  return subscriptions;
}
