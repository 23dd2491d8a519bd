/**
 * The start-up requests, sent before React's first render: the status and settings, then
 * the calendar under its saved filters. The host works on them while the page draws its
 * first frame, instead of after it (issue #45: a first run's rows within 1.5 s). The App's
 * mount and the calendar's own boot share these loads; they never ask twice.
 */
import type { Stores } from './index.js';

export function startBoot(stores: Pick<Stores, 'app' | 'calendar'>): void {
  stores.app
    .getState()
    .boot()
    .then(() => {
      const settings = stores.app.getState().settings;
      if (settings) return stores.calendar.getState().boot(settings.calendarFilters);
    })
    // the App's mount shows the error (it shares this load)
    .catch(() => undefined);
}
