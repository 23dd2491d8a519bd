/** The calendar window: rows from the cache, filters (persisted in settings), live updates. */
import { owning } from './owned.js';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AlertRules,
  CalendarFilters,
  Category,
  DomainChange,
  EventDate,
  EventDetail,
} from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { applyChangesTo } from './calendar-changes.js';

const DAY = 86_400_000;

export interface CalendarState {
  rows: EventDate[];
  /** The loaded window (ms); pushed changes outside it are ignored. */
  window: { from: number; to: number };
  categories: Category[];
  filters: CalendarFilters;
  loading: boolean;
  /** The day the window is built around (ms); null = now. Moved by the date picker. */
  anchor: number | null;
  /** Counts landed loads: the list goes back to its anchor day after each. */
  generation: number;
  /** The store's clock (injected in tests): flashes are stamped and aged with it. */
  clock: () => number;
  /** Rows that just changed, for a brief highlight. */
  flashed: Record<string, number>;
  detail: EventDetail | null;
  detailLoading: boolean;
  load(): Promise<void>;
  /** The first load, with the saved filters; later calls do nothing (the app boots once). */
  boot(filters: CalendarFilters): Promise<void>;
  setFilters(filters: CalendarFilters, persist?: boolean): Promise<void>;
  /** Load the window around this moment (null: around now), unless it is already loaded. */
  setAnchor(anchor: number | null): Promise<void>;
  applyChanges(changes: DomainChange[]): void;
  loadDetail(eventId: string): Promise<void>;
  /** The alert rules after the change, or null when the host refused it. */
  setWatched(eventId: string, watched: boolean): Promise<AlertRules | null>;
}

/** The cached rows of a window under the filters (empty filters are left out). */
function listWindow(bridge: Bridge, f: CalendarFilters, win: { from: number; to: number }) {
  return bridge.api.listEventDates({
    from: new Date(win.from).toISOString(),
    to: new Date(win.to).toISOString(),
    volatilities: f.volatilities.length ? f.volatilities : undefined,
    countries: f.countries.length ? f.countries : undefined,
    categories: f.categories.length ? f.categories : undefined,
    text: f.text.trim() || undefined,
  });
}

type Set = StoreApi<CalendarState>['setState'];
type Get = StoreApi<CalendarState>['getState'];

/** The detail panel's data and the watch toggle it shows (undone when the host refuses). */
function detailActions(bridge: Bridge, set: Set, get: Get) {
  return {
    async loadDetail(eventId: string) {
      set({ detailLoading: true });
      try {
        set({ detail: await bridge.api.getEventDetail({ eventId }), detailLoading: false });
      } catch {
        set({ detailLoading: false });
      }
    },
    async setWatched(eventId: string, watched: boolean) {
      const mine = (d: EventDetail | null) => d?.event?.id === eventId;
      const d = get().detail;
      if (d && mine(d)) set({ detail: { ...d, watched } });
      try {
        return await bridge.api.setWatched({ eventId, watched });
      } catch {
        const now = get().detail;
        if (now && mine(now)) set({ detail: { ...now, watched: !watched } });
        return null;
      }
    },
  };
}

export function createCalendarStore(bridge: Bridge, now: () => number = Date.now) {
  let loads = 0;
  let categoriesPending = false;
  let booted = false;
  const store = createStore<CalendarState>()((set, get) => {
    /** Rows for the window around the anchor under the filters; the newest request wins. */
    async function loadWindow() {
      const f = get().filters;
      const at = get().anchor ?? now();
      const win = { from: at - 7 * DAY, to: at + 15 * DAY };
      // one store update (one render) before the request, one after
      set({ loading: true, window: win });
      const seq = ++loads;
      try {
        const rows = await listWindow(bridge, f, win);
        // an older request answering late must not replace the rows of a newer filter
        if (seq === loads) set({ rows, loading: false, generation: get().generation + 1 });
      } catch {
        if (seq === loads) set({ loading: false });
      }
      // Categories only feed the filter menu: fetched once, after the rows (never before them).
      if (get().categories.length === 0 && !categoriesPending) {
        categoriesPending = true;
        bridge.api
          .listCategories()
          .then((categories) => set({ categories }))
          .catch(() => undefined)
          .finally(() => (categoriesPending = false));
      }
    }
    return {
      rows: [],
      window: { from: 0, to: 0 },
      categories: [],
      filters: { volatilities: [], countries: [], categories: [], text: '' },
      loading: false,
      anchor: null,
      generation: 0,
      clock: now,
      flashed: {},
      detail: null,
      detailLoading: false,
      load: () => loadWindow(),
      async boot(filters) {
        if (booted) return;
        booted = true;
        await get().setFilters(filters, false);
      },
      async setFilters(filters, persist = true) {
        set({ filters });
        if (persist)
          await bridge.api.updateSettings({ calendarFilters: filters }).catch(() => undefined);
        await get().load();
      },
      async setAnchor(anchor) {
        const { from, to } = get().window;
        const at = anchor ?? now();
        // inside the loaded window (a day's margin each side): nothing to fetch
        if (get().anchor === anchor || (at >= from + DAY && at < to - DAY)) {
          set({ anchor, generation: get().generation + 1 });
          return;
        }
        set({ anchor });
        await get().load();
      },
      applyChanges(changes) {
        const s = get();
        const r = applyChangesTo(s, changes, { window: s.window, filters: s.filters, now: now() });
        if (r.touched) set({ rows: r.rows, flashed: r.flashed });
        if (r.reload) void get().load();
      },
      ...detailActions(bridge, set, get),
    };
  });
  return owning(store, [bridge.on('changes', (changes) => store.getState().applyChanges(changes))]);
}
