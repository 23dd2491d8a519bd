/**
 * The app's API (src/shared/ipc.ts AppApi) as one table: each request names the part
 * that answers it, one section per area (./api/). The hosts validate requests before
 * they reach this table.
 */
import type { AppApi } from '../../shared/ipc.js';
import { alertsApi } from './api/alerts.js';
import { calendarApi } from './api/calendar.js';
import type { ApiTableDeps } from './api/deps.js';
import { maintenanceApi } from './api/maintenance.js';
import { newsApi } from './api/news.js';

export function createApiTable(d: ApiTableDeps): AppApi {
  return {
    getStatus: async () => d.status.current(),
    getSettings: async () => d.effective(),
    updateSettings: async (patch) => {
      await d.credentials.guardRelayUrl(patch?.relayUrl, false);
      return d.settings.update(patch ?? {});
    },
    ...d.credentials.api,
    ...calendarApi(d),
    ...newsApi(d),
    ...alertsApi(d),
    ...maintenanceApi(d),
    openExternal: async () => null,
    getCalendarFeed: () => d.watchlist.feed(false),
    rotateCalendarFeed: () => d.watchlist.feed(true),
    reportRendererError: async (report) => {
      d.logRendererError(report);
      return null;
    },
    installUpdate: async () => null, // the desktop shell handles it (src/main/electron/updater.ts)
  };
}
