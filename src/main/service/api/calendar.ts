/** The calendar's requests: the window, the next release, an event's detail, watching it. */
import type { AppApi } from '../../../shared/ipc.js';
import type { ApiTableDeps } from './deps.js';

const DAY_MS = 86_400_000;

type CalendarDeps = Pick<
  ApiTableDeps,
  'store' | 'now' | 'effective' | 'calendar' | 'applier' | 'settings' | 'logger'
>;

/** The event detail's chart wants a year of history; the backfill only holds weeks. */
async function refreshEventHistory(d: CalendarDeps, eventId: string): Promise<void> {
  const { store } = d;
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

export function calendarApi(
  d: CalendarDeps,
): Pick<
  AppApi,
  'listEventDates' | 'nextRelease' | 'getEventDetail' | 'listCategories' | 'setWatched'
> {
  const { store, now, effective } = d;
  return {
    listEventDates: async (q) => store.listEventDates(q),
    nextRelease: async (q) =>
      store.nextRelease({ after: new Date(now()).toISOString(), volatilities: q?.volatilities }),
    getEventDetail: async ({ eventId }) => {
      await refreshEventHistory(d, eventId);
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
  };
}
