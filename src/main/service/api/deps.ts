/** What the API table's sections answer from (each section takes only what it reads). */
import type { AlertShown, NativeNotification } from '../../../shared/domain.js';
import type { RendererErrorReport } from '../../../shared/ipc.js';
import type { createApiClients } from '../../api/index.js';
import type { WatchlistSync } from '../../desk/watchlist-sync.js';
import type { ChangeApplier } from '../../sync/applier.js';
import type { SyncEngine } from '../../sync/engine.js';
import type { CoreBasics } from '../basics.js';
import type { Credentials } from '../credentials.js';
import type { SettingsFanout } from '../settings-fanout.js';
import type { StatusReporter } from '../status.js';

type CalendarApi = ReturnType<typeof createApiClients>['calendar'];

export interface ApiTableDeps extends Omit<CoreBasics, 'bus'> {
  dataDir: string;
  logFile: string | null;
  appVersion: string | undefined;
  sync: Pick<SyncEngine, 'backfill'>;
  calendar: Pick<CalendarApi, 'event' | 'historical'>;
  applier: Pick<ChangeApplier, 'applyEventDates'>;
  credentials: Credentials;
  settings: SettingsFanout;
  status: StatusReporter;
  watchlist: Pick<WatchlistSync, 'feed'>;
  /** The one delivery path of notifications (the hosts' native + the window's toast). */
  notify: (n: NativeNotification) => void;
  /** A surface showed a notification (src/main/alerts/acknowledgements.ts). */
  acknowledge: (ack: AlertShown) => void;
  /** The renderer's own failure, to the log (rate-limited: service/renderer-errors.ts). */
  logRendererError: (report: RendererErrorReport) => void;
  /** Tells every window which alerts were marked read (null: all). */
  onAlertsRead: (ids: number[] | null) => void;
}
