/**
 * The core as its hosts hold it (MacrobellService): the API, the pushes, the tray's next
 * releases, and start/stop in the order the parts need — sync before the demo's webhooks,
 * everything that writes before the database closes.
 */
import { logUnexpectedErrors } from '../../node/log/unexpected-errors.js';
import type { AppApi } from '../../shared/ipc.js';
import type { Disposable } from '../../shared/event.js';
import { onPush } from '../service-contract.js';
import type { EventDate } from '../../shared/domain.js';
import type { AlertsEngine } from '../alerts/index.js';
import type { DemoMarket } from '../demo.js';
import type { WatchlistSync } from '../desk/watchlist-sync.js';
import type { NewsWindowAlerts } from '../notify/news-window-alerts.js';
import type { AppService } from '../service.js';
import type { PruneScheduler } from '../store/prune-schedule.js';
import type { ChangeApplier } from '../sync/applier.js';
import type { SyncEngine } from '../sync/engine.js';
import type { CoreBasics } from './basics.js';
import type { DemoWebhookLink, DemoWebhooksDeps } from './demo-webhooks.js';
import type { StatusReporter } from './status.js';

const DAY_MS = 86_400_000;

export interface CoreParts extends CoreBasics {
  api: AppApi;
  demo: boolean;
  dataDir: string;
  simulator: DemoMarket | undefined;
  alerts: AlertsEngine;
  newsWindowAlerts: NewsWindowAlerts;
  watchlist: WatchlistSync;
  pruning: PruneScheduler;
  sync: SyncEngine;
  applier: ChangeApplier;
  calendar: DemoWebhooksDeps['calendar'];
  news: DemoWebhooksDeps['news'];
  status: StatusReporter;
  demoWebhooks: DemoWebhookLink;
  /** The parts' subscriptions to each other (service/publish.ts), ended at stop. */
  subscriptions: Disposable;
  /** Demo on an empty cache: the first view from the simulator, before any token (sync/demo-seed.ts). */
  seed: () => void;
}

export function assembleService(p: CoreParts): AppService {
  const { store, now, sync, simulator } = p;
  let stopped = false;
  let stopLoggingUnexpected: () => void = () => undefined;
  return {
    api: p.api,
    demo: p.demo,
    dataDir: p.dataDir,
    simulatorUrl: simulator?.url,
    on: (event, listener) => onPush(p.bus.pushes, event, listener),
    upcomingReleases(limit: number): EventDate[] {
      const from = new Date(now()).toISOString();
      const to = new Date(now() + 7 * DAY_MS).toISOString();
      return store
        .upcoming({ from, to, minVolatility: 'HIGH' })
        .filter((ed) => ed.actual === null)
        .slice(0, limit);
    },
    async start() {
      // A listener that throws with no handler of its own: into the core's log, named.
      stopLoggingUnexpected = logUnexpectedErrors(p.logger);
      // first, synchronously: the rows are there before the token exchange even starts
      p.seed();
      p.alerts.rescheduleReminders();
      p.newsWindowAlerts.start();
      p.watchlist.changed();
      await sync.start();
      if (simulator) await p.demoWebhooks.connect(p);
      p.status.push();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      p.status.stop();
      p.subscriptions.dispose();
      p.alerts.stop();
      p.newsWindowAlerts.stop();
      p.watchlist.stop();
      p.pruning.stop();
      await sync.stop();
      await p.demoWebhooks.close();
      await simulator?.close();
      store.close();
      stopLoggingUnexpected();
      p.logger.flush?.();
    },
  };
}
