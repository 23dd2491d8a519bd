/** The calendar's requests: the window, the next release, an event's detail, watching it. */
import type { EventDate } from '../../../shared/domain.js';
import { releaseDecimals } from '../../../shared/format.js';
import type { AppApi } from '../../../shared/ipc.js';
import type { Store } from '../../store/index.js';
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

/**
 * Each row with its event's usual precision where that is finer than its own figures: an
 * ECB hold at 1.9 / 1.9 / 1.9 shows as "1.90%", as its history prints it.
 */
function withPrecision(store: Pick<Store, 'eventPrecision'>, rows: EventDate[]): EventDate[] {
  const precision = store.eventPrecision([...new Set(rows.map((r) => r.eventId))]);
  return rows.map((r) => {
    const decimals = precision.get(r.eventId);
    return decimals !== undefined && decimals > (releaseDecimals(r) ?? 0) ? { ...r, decimals } : r;
  });
}

export function calendarApi(
  d: CalendarDeps,
): Pick<
  AppApi,
  'listEventDates' | 'nextRelease' | 'getEventDetail' | 'listCategories' | 'setWatched'
> {
  const { store, now, effective } = d;
  return {
    listEventDates: async (q) => withPrecision(store, store.listEventDates(q)),
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
