/**
 * Sync as the core runs it: the one apply path (its changes pushed, a reshaped calendar
 * re-planning the safety net's bursts), the sync engine over the observed APIs, and the
 * desk's watch-list upload.
 */
import { platform, release } from 'node:os';
import type { AlertsEngine } from '../alerts/index.js';
import type { DeskConnection } from '../auth/desk-token-source.js';
import { PresenceReporter, desktopId, osLabel } from '../desk/presence-reporter.js';
import { WatchlistSync } from '../desk/watchlist-sync.js';
import { ChangeApplier } from '../sync/applier.js';
import { SyncEngine, type SyncEngineDeps } from '../sync/engine.js';
import type { RelayConsumerFactory } from '../sync/live-source.js';
import { RelayConsumer } from '../sync/relay-consumer.js';
import type { SafetyNetTuning } from '../sync/safety-net.js';
import type { CoreBasics } from './basics.js';

export interface SyncCoreDeps
  extends CoreBasics, Pick<SyncEngineDeps, 'calendar' | 'news' | 'health' | 'directWebhooks'> {
  alerts: AlertsEngine;
  desk: DeskConnection;
  demo: boolean;
  appVersion?: string;
  relayConsumer?: RelayConsumerFactory;
  safetyNet?: Partial<SafetyNetTuning>;
  monotonicNow?: () => number;
}

/** Desk mode: the watch list goes to the relay, which serves it as a webcal feed. */
function createWatchlist({ demo, desk, effective, logger }: SyncCoreDeps): WatchlistSync {
  const watchlist = new WatchlistSync({
    isDesk: () => !demo && desk.isDesk(),
    relayUrl: () => effective().relayUrl,
    relayToken: () => desk.relayToken(),
    watchedEventIds: () => effective().alertRules.watchedEventIds,
    logger,
  });
  return watchlist; // it follows the relay's connection: service/publish.ts
}

export function createSyncCore(d: SyncCoreDeps) {
  const { store, calendar, news, logger, desk, bus, effective } = d;
  const applier = new ChangeApplier({
    store,
    calendar,
    news,
    alerts: d.alerts,
    logger,
    cultures: () => effective().cultures,
  });
  const sync = new SyncEngine({
    store,
    calendar,
    news,
    applier,
    health: d.health,
    settings: effective,
    directWebhooks: d.directWebhooks,
    relayToken: () => desk.relayToken(),
    relayConsumer: d.relayConsumer ?? ((o) => new RelayConsumer(o)),
    presence: new PresenceReporter({
      token: () => desk.relayToken(),
      desktopId: desktopId(store),
      appVersion: d.appVersion ?? 'unknown',
      os: osLabel(platform(), release()),
      alertsToday: () => store.alertsToday(d.now()),
      logger,
    }),
    logger,
    onStatus: bus.statusChanged,
    onBackfill: (p) => bus.pushes.backfill.fire(p),
    safetyNet: d.safetyNet,
    now: d.now,
    monotonicNow: d.monotonicNow,
  });
  return { applier, sync, watchlist: createWatchlist(d) };
}
