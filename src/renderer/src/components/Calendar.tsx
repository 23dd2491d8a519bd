/** The calendar screen: filters, time navigation, the virtualised grid and the event detail. */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type RefObject,
} from 'react';
import type { EventDate } from '../../../shared/domain.js';
import {
  buildItems,
  dayIndex,
  openingIndex,
  sortDaysBySurprise,
  withNowLine,
  type Item,
} from '../lib/items.js';
import { dayKey, warmFormatters } from '../lib/time.js';
import { useNowPassing, useSortedTimes } from '../lib/use-now-passing.js';
import { useApp, useCalendar, useStores } from '../state/index.js';
import { FontWarmup } from './calendar/Cells.js';
import { GridRows } from './calendar/GridRows.js';
import { useNewsWindowTest } from './calendar/use-news-windows.js';
import { Filters } from './calendar/Filters.js';
import { HeaderCountdown } from './calendar/HeaderCountdown.js';
import { TimeNav } from './calendar/TimeNav.js';
import { useGridKeys } from './calendar/use-grid-keys.js';
import { ROW_HEIGHT, useRowWindow } from './calendar/use-row-window.js';
import { useToggleWatch, useWatched } from './calendar/use-watch.js';

const COLUMNS = [
  ['time', 'Time'],
  ['country', 'Country'],
  ['currency', 'Ccy'],
  ['impact', 'Impact'],
  ['name', 'Event'],
  ['actual', 'Actual'],
  ['consensus', 'Consensus'],
  ['previous', 'Previous'],
  ['surprise', 'Surprise'],
  ['watch', 'Watch'],
] as const;
// The detail (with its chart) loads when a release is first opened.
const EventDetailPanel = lazy(() =>
  import('./EventDetail.js').then((m) => ({ default: m.EventDetailPanel })),
);

const FLASH_MS = 4000;
const NUMERIC = new Set(['actual', 'consensus', 'previous', 'surprise']);

/**
 * The grid's items (day headers, rows, the now line, or each day by surprise) and its row
 * window, anchored on today or on the day jumped to.
 */
function useGridItems(rows: EventDate[], zone: string, generation: number) {
  const { calendar } = useStores();
  // The now line follows the clock within a few seconds; the grid re-renders only when a
  // release time goes by (that is when the line and the "past" rows move), not every tick.
  const dayOf = useCallback((t: number) => dayKey(new Date(t).toISOString(), zone), [zone]);
  const now = useNowPassing(useSortedTimes(rows), 5_000, dayOf);
  const [bySurprise, setBySurprise] = useState(false);
  const [targetDay, setTargetDay] = useState<string | null>(null);
  const base = useMemo(() => buildItems(rows, zone), [rows, zone]);
  const items = useMemo(
    () => (bySurprise ? sortDaysBySurprise(base) : withNowLine(base, now, zone)),
    [base, now, bySurprise, zone],
  );
  const anchor = useCallback(
    (list: Item[], visibleRows = Infinity) => {
      const i = targetDay === null ? -1 : dayIndex(list, targetDay);
      return i >= 0 ? i : openingIndex(list, Date.now(), zone, visibleRows);
    },
    [targetDay, zone],
  );
  const win = useRowWindow(items, anchor, generation);
  // Turning the surprise sort off puts the rows back in time order: go back to today (or the
  // day jumped to), not the pixel offset that meant another row in the sorted list.
  const backToAnchor = useRef(false);
  const toggleSurprise = () => {
    backToAnchor.current = bySurprise;
    setBySurprise(!bySurprise);
  };
  useLayoutEffect(() => {
    if (!backToAnchor.current) return;
    backToAnchor.current = false;
    win.scrollToIndex(anchor(items));
  }, [items, anchor, win]);
  // a jump (Today, a date) anchors the grid on that day and the store's window on its time
  const onJump = (day: string | null, anchorMs: number | null) => {
    setTargetDay(day);
    void calendar.getState().setAnchor(anchorMs);
  };
  return { now, items, win, bySurprise, toggleSurprise, onJump };
}

/**
 * Build the formatters while the calendar is fetched rather than after it arrives (the first
 * Intl.DateTimeFormat of a tab loads locale data); after the fetch has been sent.
 */
function useWarmFormatters(ready: boolean, zone: string, hourCycle: 'h12' | 'h23') {
  useEffect(() => {
    if (!ready) return;
    const t = setTimeout(() => warmFormatters(zone, hourCycle), 0);
    return () => clearTimeout(t);
  }, [ready, zone, hourCycle]);
}

/** Focus goes back to the grid when the detail closes (✕ or Escape). */
function useFocusBackOnClose(eventId: string | null, grid: RefObject<HTMLDivElement | null>) {
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && eventId === null) grid.current?.focus();
    wasOpen.current = eventId !== null;
  }, [eventId, grid]);
}

/** The day of the row at the top of the grid's view (the time navigation shows it). */
function viewDayOf(items: Item[], scrollTop: number, zone: string): string | null {
  const top = items[Math.min(items.length - 1, Math.floor(scrollTop / ROW_HEIGHT) + 1)];
  if (top?.kind === 'day') return top.day;
  return top?.kind === 'row' ? dayKey(top.ed.dateUtc, zone) : null;
}

function GridHead() {
  return (
    <div role="row" aria-rowindex={1} className="grid-head">
      {COLUMNS.map(([col, h]) => (
        <span
          key={col}
          role="columnheader"
          data-col={col}
          className={NUMERIC.has(col) ? 'num' : undefined}
        >
          {h}
        </span>
      ))}
    </div>
  );
}

/** What the grid says while it has no row: loading, or nothing matches. */
function NoRows() {
  const rows = useCalendar((s) => s.rows);
  const loading = useCalendar((s) => s.loading);
  if (rows.length > 0) return null;
  return (
    <>
      {loading ? (
        <p className="muted pad">Loading the calendar…</p>
      ) : (
        <p className="muted pad">No releases match these filters.</p>
      )}
      <FontWarmup />
    </>
  );
}

function SurpriseSortToggle({ on, toggle }: { on: boolean; toggle: () => void }) {
  return (
    <div className="grid-tools">
      <button type="button" className="chip" aria-pressed={on} onClick={toggle}>
        Sort each day by surprise
      </button>
    </div>
  );
}

/** The rows' callbacks: open a row's detail (focusing it), toggle its watch. */
function useRowActions(setFocus: (index: number) => void) {
  const { app } = useStores();
  const toggleWatch = useToggleWatch();
  const openRow = useCallback(
    (index: number, id: string) => {
      setFocus(index);
      app.getState().openEvent(id);
    },
    [setFocus, app],
  );
  const watchRow = useCallback((id: string) => void toggleWatch(id), [toggleWatch]);
  return { openRow, watchRow };
}

/** The grid's keyboard (use-grid-keys.ts) on these items, and closing the detail. */
function useCalendarKeys(
  items: Item[],
  win: ReturnType<typeof useRowWindow>,
  eventId: string | null,
) {
  const { app } = useStores();
  const toggleWatch = useToggleWatch();
  const closeDetail = useCallback(() => app.getState().openEvent(null), [app]);
  const keys = useGridKeys({
    items,
    scroller: win.scroller,
    scrollTop: win.scrollTop,
    scrollToIndex: win.scrollToIndex,
    open: (id) => app.getState().openEvent(id),
    toggleWatch: (id) => void toggleWatch(id),
    openEventId: eventId,
    closeDetail,
  });
  return { keys, closeDetail };
}

export function Calendar() {
  const rows = useCalendar((s) => s.rows);
  const generation = useCalendar((s) => s.generation);
  const settings = useApp((s) => s.settings);
  const eventId = useApp((s) => s.eventId);
  const watched = useWatched();
  const zone = settings?.timeZone ?? 'system';
  const hourCycle = settings?.hourCycle ?? 'h23';
  const inNewsWindow = useNewsWindowTest(rows);
  const { now, items, win, bySurprise, toggleSurprise, onJump } = useGridItems(
    rows,
    zone,
    generation,
  );
  useWarmFormatters(settings !== null, zone, hourCycle);
  const flashing = useFlashing();
  const { keys, closeDetail } = useCalendarKeys(items, win, eventId);
  useFocusBackOnClose(eventId, win.scroller);
  const { openRow, watchRow } = useRowActions(keys.setFocus);
  const focused = items[keys.focus];
  return (
    <section className="calendar-screen" aria-label="Economic calendar">
      <header className="screen-header">
        <h1>Calendar</h1>
        <HeaderCountdown rows={rows} />
      </header>
      <Filters />
      <TimeNav
        zone={zone}
        viewDay={viewDayOf(items, win.scrollTop, zone)}
        rows={rows}
        onJump={onJump}
      />
      <div className={`calendar-body${eventId ? ' with-detail' : ''}`}>
        <div className="grid-wrap">
          <SurpriseSortToggle on={bySurprise} toggle={toggleSurprise} />
          <div
            className="grid"
            id="calendar-grid"
            data-primary
            role="grid"
            aria-label="Economic releases"
            aria-rowcount={items.length + 1}
            aria-activedescendant={focused?.kind === 'row' ? `row-${focused.ed.id}` : undefined}
            tabIndex={0}
            onKeyDown={keys.onKeyDown}
            ref={win.scroller}
            onScroll={win.onScroll}
          >
            <GridHead />
            <NoRows />
            <div style={{ height: items.length * ROW_HEIGHT, position: 'relative' }}>
              <GridRows
                items={items}
                first={win.first}
                last={win.last}
                now={now}
                zone={zone}
                hourCycle={hourCycle}
                focus={keys.focus}
                openEventId={eventId}
                watched={watched}
                flashing={flashing}
                inNewsWindow={inNewsWindow}
                onOpen={openRow}
                onWatch={watchRow}
              />
            </div>
          </div>
        </div>
        {eventId && (
          <Suspense fallback={null}>
            <EventDetailPanel {...{ eventId, zone, hourCycle }} onClose={closeDetail} />
          </Suspense>
        )}
      </div>
    </section>
  );
}

/**
 * Whether a row still flashes (a print within the last 4 s). The grid no longer re-renders
 * on a clock tick, so it re-renders once when the newest flash has run out.
 */
function useFlashing() {
  const flashed = useCalendar((s) => s.flashed);
  const clock = useCalendar((s) => s.clock);
  const [, expire] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const stamps = Object.values(flashed);
    if (!stamps.length) return;
    const left = Math.max(...stamps) + FLASH_MS - clock();
    if (left <= 0) return;
    const t = setTimeout(expire, left + 50);
    return () => clearTimeout(t);
  }, [flashed, clock]);
  return (ed: EventDate) =>
    flashed[ed.id] !== undefined && clock() - (flashed[ed.id] as number) < FLASH_MS;
}

export function useCalendarBoot(): void {
  const { calendar } = useStores();
  const settings = useApp((s) => s.settings);
  const booted = useRef(false);
  useEffect(() => {
    if (!settings || booted.current) return;
    booted.current = true;
    void calendar.getState().boot(settings.calendarFilters);
  }, [settings, calendar]);
}
