/** The calendar window: rows from the cache, filters (persisted in settings), live updates. */
import { createStore } from 'zustand/vanilla';
import type {
  CalendarFilters,
  Category,
  DomainChange,
  EventDate,
  EventDetail,
} from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';

const DAY = 86_400_000;

export interface CalendarState {
  rows: EventDate[];
  /** The loaded window (ms); pushed changes outside it are ignored. */
  window: { from: number; to: number };
  categories: Category[];
  filters: CalendarFilters;
  loading: boolean;
  /** Rows that just changed, for a brief highlight. */
  flashed: Record<string, number>;
  detail: EventDetail | null;
  detailLoading: boolean;
  load(): Promise<void>;
  setFilters(filters: CalendarFilters, persist?: boolean): Promise<void>;
  applyChanges(changes: DomainChange[]): void;
  loadDetail(eventId: string): Promise<void>;
  setWatched(eventId: string, watched: boolean): Promise<void>;
}

export function createCalendarStore(bridge: Bridge, now: () => number = Date.now) {
  let loads = 0;
  let categoriesPending = false;
  const store = createStore<CalendarState>()((set, get) => ({
    rows: [],
    window: { from: 0, to: 0 },
    categories: [],
    filters: { volatilities: [], countries: [], categories: [], text: '' },
    loading: false,
    flashed: {},
    detail: null,
    detailLoading: false,
    async load() {
      const f = get().filters;
      const win = { from: now() - 7 * DAY, to: now() + 15 * DAY };
      // one store update (one render) before the request, one after
      set({ loading: true, window: win });
      const seq = ++loads;
      // Categories only feed the filter menu: fetched once, beside the rows, never holding them up.
      if (get().categories.length === 0 && !categoriesPending) {
        categoriesPending = true;
        bridge.api
          .listCategories()
          .then((categories) => set({ categories }))
          .catch(() => undefined)
          .finally(() => (categoriesPending = false));
      }
      const from = new Date(win.from).toISOString();
      const to = new Date(win.to).toISOString();
      try {
        const rows = await bridge.api.listEventDates({
          from,
          to,
          volatilities: f.volatilities.length ? f.volatilities : undefined,
          countries: f.countries.length ? f.countries : undefined,
          categories: f.categories.length ? f.categories : undefined,
          text: f.text.trim() || undefined,
        });
        // an older request answering late must not replace the rows of a newer filter
        if (seq === loads) set({ rows, loading: false });
      } catch {
        if (seq === loads) set({ loading: false });
      }
    },
    async setFilters(filters, persist = true) {
      set({ filters });
      if (persist)
        await bridge.api.updateSettings({ calendarFilters: filters }).catch(() => undefined);
      await get().load();
    },
    applyChanges(changes) {
      const { from, to } = get().window;
      const inWindow = (iso: string) => {
        const t = Date.parse(iso);
        return t >= from && t < to;
      };
      let rows = get().rows;
      const flashed = { ...get().flashed };
      let touched = false;
      for (const c of changes) {
        if ('eventDate' in c && c.eventDate && c.kind !== 'eventDateRemoved') {
          const ed = c.eventDate;
          const i = rows.findIndex((r) => r.id === ed.id);
          if (i >= 0) {
            rows = rows.slice();
            rows[i] = ed;
            if (c.kind === 'released' || c.kind === 'revised' || c.kind === 'rescheduled')
              flashed[ed.id] = now();
            touched = true;
          } else if (c.kind === 'eventDateAdded' && inWindow(ed.dateUtc)) {
            rows = [...rows, ed].sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
            touched = true;
          }
          if (c.kind === 'rescheduled')
            rows = rows.slice().sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
        } else if (c.kind === 'eventDateRemoved') {
          rows = rows.filter((r) => r.id !== c.eventDateId);
          touched = true;
        }
      }
      if (touched) set({ rows, flashed });
    },
    async loadDetail(eventId) {
      set({ detailLoading: true });
      try {
        set({ detail: await bridge.api.getEventDetail({ eventId }), detailLoading: false });
      } catch {
        set({ detailLoading: false });
      }
    },
    async setWatched(eventId, watched) {
      const d = get().detail;
      if (d) set({ detail: { ...d, watched } });
      try {
        await bridge.api.setWatched({ eventId, watched });
      } catch {
        if (d) set({ detail: { ...d, watched: !watched } });
      }
    },
  }));
  bridge.on('changes', (changes) => store.getState().applyChanges(changes));
  return store;
}
