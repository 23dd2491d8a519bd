/**
 * The app's API (src/shared/ipc.ts AppApi) as one table: each request names the part
 * that answers it. The hosts validate requests before they reach this table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NativeNotification, Settings } from '../../shared/domain.js';
import type { AppApi } from '../../shared/ipc.js';
import type { createApiClients } from '../api/index.js';
import { recentErrors, runtimeInfo } from '../diagnostics.js';
import { testAlertNotification } from '../../shared/test-alert.js';
import { summarize } from '../notify/os-checks.js';
import { scrubSecrets, type Logger } from '../../node/log/logger.js';
import type { Store } from '../store/index.js';
import { listPostsTriaged, markAllPostsRead } from '../store/news-triage.js';
import type { ChangeApplier } from '../sync/applier.js';
import type { WatchlistSync } from '../desk/watchlist-sync.js';
import type { SyncEngine } from '../sync/engine.js';
import type { Credentials } from './credentials.js';
import type { SettingsFanout } from './settings-fanout.js';
import type { StatusReporter } from './status.js';

type CalendarApi = ReturnType<typeof createApiClients>['calendar'];

export interface ApiTableDeps {
  dataDir: string;
  logFile: string | null;
  appVersion: string | undefined;
  now: () => number;
  logger: Logger;
  effective: () => Settings;
  store: Store;
  sync: Pick<SyncEngine, 'backfill'>;
  calendar: Pick<CalendarApi, 'event' | 'historical'>;
  applier: Pick<ChangeApplier, 'applyEventDates'>;
  credentials: Credentials;
  settings: SettingsFanout;
  status: StatusReporter;
  watchlist: Pick<WatchlistSync, 'feed'>;
  /** The one delivery path of notifications (the hosts' native + the window's toast). */
  notify: (n: NativeNotification) => void;
  /** Tells every window which alerts were marked read (null: all). */
  onAlertsRead: (ids: number[] | null) => void;
}

const DAY_MS = 86_400_000;

export function createApiTable(d: ApiTableDeps): AppApi {
  const { store, now, effective } = d;

  /** The event detail's chart wants a year of history; the backfill only holds weeks. */
  async function refreshEventHistory(eventId: string): Promise<void> {
    try {
      const [event, history] = await Promise.all([
        store.getEvent(eventId) ? null : d.calendar.event(eventId),
        d.calendar.historical(eventId),
      ]);
      if (event) store.transaction(() => store.upsertEvent(event.value, event.raw));
      d.applier.applyEventDates(history, 'backfill');
    } catch (err) {
      d.logger.info({ eventId, err }, 'history from cache only');
    }
  }

  const cacheInfo = () => ({
    dataDir: d.dataDir,
    databaseBytes: store.sizeBytes(),
    ...pick(store.counts()),
  });

  async function diagnostics(): Promise<string> {
    // The log this core really writes (the configured file), and the shell's beside it.
    const { logFile } = d;
    const logDir = logFile ? dirname(logFile) : join(d.dataDir, 'logs');
    const logTail =
      logFile && existsSync(logFile)
        ? readFileSync(logFile, 'utf8').split('\n').slice(-200).join('\n')
        : '';
    const report = {
      app: 'Macrobell',
      versions: runtimeInfo(d.appVersion),
      lastErrors: recentErrors([...(logFile ? [logFile] : []), join(logDir, 'shell.log')]),
      status: d.status.current(),
      settings: { ...effective(), relayUrl: effective().relayUrl ? '[configured]' : null },
      cache: { databaseBytes: store.sizeBytes(), ...store.counts() },
    };
    return scrubSecrets(
      `${JSON.stringify(report, null, 2)}\n\n--- recent log ---\n${logTail}`,
      await d.credentials.knownSecrets(),
    );
  }

  return {
    getStatus: async () => d.status.current(),
    getSettings: async () => effective(),
    updateSettings: async (patch) => {
      await d.credentials.guardRelayUrl(patch?.relayUrl, false);
      return d.settings.update(patch ?? {});
    },
    ...d.credentials.api,
    listEventDates: async (q) => store.listEventDates(q),
    nextRelease: async (q) =>
      store.nextRelease({ after: new Date(now()).toISOString(), volatilities: q?.volatilities }),
    getEventDetail: async ({ eventId }) => {
      await refreshEventHistory(eventId);
      const from = new Date(now()).toISOString();
      const to = new Date(now() + 90 * DAY_MS).toISOString();
      return {
        event: store.getEvent(eventId),
        upcoming: store.eventOccurrences(eventId, { from, to }),
        history: store.eventHistory(eventId, { limit: 36 }),
        watched: effective().alertRules.watchedEventIds.includes(eventId),
      };
    },
    listCategories: async () => store.listCategories(),
    setWatched: async ({ eventId, watched }) => {
      const rules = effective().alertRules;
      const ids = new Set(rules.watchedEventIds);
      if (watched) ids.add(eventId);
      else ids.delete(eventId);
      return d.settings.setRules({ ...rules, watchedEventIds: [...ids] });
    },
    listPosts: async (q) => {
      const r = listPostsTriaged(store.db, { ...q, culture: q.culture ?? effective().cultures[0] });
      return { ...r, page: q.page, pageSize: q.pageSize };
    },
    markAllPostsRead: async ({ culture }) => {
      markAllPostsRead(store.db, culture ?? effective().cultures[0]);
      return null;
    },
    getPost: async ({ id, culture }) => store.getPost(id, culture),
    markPostRead: async ({ id, culture }) => {
      store.markPostRead(id, culture);
      return null;
    },
    searchPosts: async (q) => store.searchPosts(q),
    listAlerts: async (q) => store.listAlerts(q),
    markAlertsRead: async ({ ids }) => {
      store.markAlertsRead(ids);
      d.status.push();
      d.onAlertsRead(ids ?? null);
      return null;
    },
    getAlertRules: async () => effective().alertRules,
    setAlertRules: async (rules) => d.settings.setRules(rules),
    pauseAlerts: async ({ until }) =>
      d.settings.setRules({ ...effective().alertRules, pausedUntil: until }),
    syncNow: async () => {
      await d.sync.backfill();
      return null;
    },
    getCacheInfo: async () => cacheInfo(),
    clearCache: async () => {
      store.clearCache();
      void d.sync.backfill();
      return cacheInfo();
    },
    getDiagnostics: diagnostics,
    openExternal: async () => null,
    getCalendarFeed: () => d.watchlist.feed(false),
    rotateCalendarFeed: () => d.watchlist.feed(true),
    installUpdate: async () => null, // the desktop shell handles it (src/main/electron/updater.ts)
    // The desktop shell adds what the OS did (src/main/electron/native-alerts.ts); web mode
    // has only the window's toast here (the browser's notification is the renderer's).
    sendTestAlert: async () => {
      d.notify(testAlertNotification());
      return { outcome: 'in-app', summary: summarize('in-app', []), checks: [], banner: false };
    },
    dismissAlertBanner: async () => null, // the desktop shell drops always-on-top
  };
}

function pick(c: { eventDates: number; posts: number }): { eventDates: number; posts: number } {
  return { eventDates: c.eventDates, posts: c.posts };
}
