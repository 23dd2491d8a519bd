/**
 * The start-up requests, sent before React's first render: the status and settings, then
 * the calendar under its saved filters. The server works on them while the page draws its
 * first frame, instead of after it (the components ask again; those asks are shared).
 */
import type { Stores } from './index.js';

export function startBoot(stores: Pick<Stores, 'app' | 'calendar'>): void {
  stores.app
    .getState()
    .load()
    .then(() => {
      const settings = stores.app.getState().settings;
      if (settings) return stores.calendar.getState().boot(settings.calendarFilters);
    })
    // the App's own load shows the error (it asks again on mount)
    .catch(() => undefined);
}
