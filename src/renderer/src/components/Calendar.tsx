/** The calendar screen: filters, time navigation, the virtualised grid and the event detail. */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  buildItems,
  dayIndex,
  openingIndex,
  sortDaysBySurprise,
  withNowLine,
  type Item,
} from '../lib/items.js';
import { dayKey, warmFormatters } from '../lib/time.js';
import { useNow } from '../lib/use-now.js';
import { useApp, useCalendar, useStores } from '../state/index.js';
import { FontWarmup } from './calendar/Cells.js';
import { EventRow } from './calendar/EventRow.js';
import { useNewsWindowTest } from './calendar/use-news-windows.js';
import { Filters } from './calendar/Filters.js';
import { NextRelease } from './calendar/NextRelease.js';
import { TimeNav } from './calendar/TimeNav.js';
import { useGridKeys } from './calendar/use-grid-keys.js';
import { ROW_HEIGHT, useRowWindow } from './calendar/use-row-window.js';
import { useToggleWatch, useWatched } from './calendar/use-watch.js';
import { EventDetailPanel } from './EventDetail.js';

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
const NUMERIC = new Set(['actual', 'consensus', 'previous', 'surprise']);

export function Calendar() {
  const { app, calendar } = useStores();
  const rows = useCalendar((s) => s.rows);
  const loading = useCalendar((s) => s.loading);
  const flashed = useCalendar((s) => s.flashed);
  const generation = useCalendar((s) => s.generation);
  const clock = useCalendar((s) => s.clock);
  const settings = useApp((s) => s.settings);
  const eventId = useApp((s) => s.eventId);
  const watched = useWatched();
  const toggleWatch = useToggleWatch();
  const zone = settings?.timeZone ?? 'system';
  const hourCycle = settings?.hourCycle ?? 'h23';
  // The now line follows the clock within a few seconds.
  const now = useNow(5_000);
  const inNewsWindow = useNewsWindowTest(rows);
  const [bySurprise, setBySurprise] = useState(false);
  const [targetDay, setTargetDay] = useState<string | null>(null);
  const base = useMemo(() => buildItems(rows, zone), [rows, zone]);
  const items = useMemo(
    () => (bySurprise ? sortDaysBySurprise(base) : withNowLine(base, now)),
    [base, now, bySurprise],
  );
  const anchor = useCallback(
    (list: Item[], visibleRows = Infinity) => {
      const i = targetDay === null ? -1 : dayIndex(list, targetDay);
      return i >= 0 ? i : openingIndex(list, now, zone, visibleRows);
    },
    [targetDay, now, zone],
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

  // Build the formatters while the calendar is fetched rather than after it arrives (the first
  // Intl.DateTimeFormat of a tab loads locale data); after the fetch has been sent.
  useEffect(() => {
    if (!settings) return;
    const t = setTimeout(() => warmFormatters(zone, hourCycle), 0);
    return () => clearTimeout(t);
  }, [settings, zone, hourCycle]);

  const closeDetail = useCallback(() => app.getState().openEvent(null), [app]);
  const keys = useGridKeys({
    items,
    scroller: win.scroller,
    scrollTop: win.scrollTop,
    scrollToIndex: win.scrollToIndex,
    open: (id) => app.getState().openEvent(id),
    toggleWatch: (id) => void toggleWatch(id),
    detailOpen: eventId !== null,
    closeDetail,
  });

  const topItem = items[Math.min(items.length - 1, Math.floor(win.scrollTop / ROW_HEIGHT) + 1)];
  const viewDay =
    topItem?.kind === 'day'
      ? topItem.day
      : topItem?.kind === 'row'
        ? dayKey(topItem.ed.dateUtc, zone)
        : null;
  const onJump = (day: string | null, anchorMs: number | null) => {
    setTargetDay(day);
    void calendar.getState().setAnchor(anchorMs);
  };
  // focus goes back to the grid when the detail closes (✕ or Escape)
  const grid = win.scroller;
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && eventId === null) grid.current?.focus();
    wasOpen.current = eventId !== null;
  }, [eventId, grid]);

  const focused = items[keys.focus];
  return (
    <section className="calendar-screen" aria-label="Economic calendar">
      <header className="screen-header">
        <h1>Calendar</h1>
        <NextRelease rows={rows} />
      </header>
      <Filters />
      <TimeNav zone={zone} now={now} viewDay={viewDay} rows={rows} onJump={onJump} />
      <div className={`calendar-body${eventId ? ' with-detail' : ''}`}>
        <div className="grid-wrap">
          <div className="grid-tools">
            <button
              type="button"
              className="chip"
              aria-pressed={bySurprise}
              onClick={toggleSurprise}
            >
              Sort each day by surprise
            </button>
          </div>
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
            <div role="row" aria-rowindex={1} className="grid-head">
              {COLUMNS.map(([col, h]) => (
                <span
                  key={col}
                  role="columnheader"
                  data-col={col}
                  className={NUMERIC.has(col) ? 'num' : undefined}
                >
                  {col === 'watch' ? <span className="sr-only">{h}</span> : h}
                </span>
              ))}
            </div>
            {loading && rows.length === 0 && <p className="muted pad">Loading the calendar…</p>}
            {!loading && rows.length === 0 && (
              <p className="muted pad">No releases match these filters.</p>
            )}
            {rows.length === 0 && <FontWarmup />}
            <div style={{ height: items.length * ROW_HEIGHT, position: 'relative' }}>
              {items.slice(win.first, win.last).map((it, k) => {
                const index = win.first + k;
                const style = {
                  position: 'absolute' as const,
                  top: index * ROW_HEIGHT,
                  height: ROW_HEIGHT,
                  left: 0,
                  right: 0,
                };
                if (it.kind === 'now')
                  return (
                    <div
                      key="now"
                      role="row"
                      aria-rowindex={index + 2}
                      className="now-line"
                      style={style}
                      data-testid="now-line"
                    >
                      <span role="gridcell">Now</span>
                    </div>
                  );
                if (it.kind === 'day')
                  return (
                    <div
                      key={it.key}
                      role="row"
                      aria-rowindex={index + 2}
                      className="day-row"
                      style={style}
                      data-day={it.day}
                    >
                      <span role="rowheader">{it.label}</span>
                    </div>
                  );
                const ed = it.ed;
                const isFlash =
                  flashed[ed.id] !== undefined && clock() - (flashed[ed.id] as number) < 4000;
                const past = ed.actual !== null || Date.parse(ed.dateUtc) < now;
                const classes = `${isFlash ? ' flash' : ''}${keys.focus === index ? ' focused' : ''}${past ? ' past' : ''}${eventId === ed.eventId ? ' open' : ''}${inNewsWindow(ed) ? ' news-window' : ''}`;
                return (
                  <EventRow
                    key={it.key}
                    ed={ed}
                    index={index}
                    style={style}
                    zone={zone}
                    hourCycle={hourCycle}
                    classes={classes}
                    focused={keys.focus === index}
                    watched={watched.includes(ed.eventId)}
                    onOpen={() => {
                      keys.setFocus(index);
                      app.getState().openEvent(ed.eventId);
                    }}
                    onWatch={() => void toggleWatch(ed.eventId)}
                  />
                );
              })}
            </div>
          </div>
        </div>
        {eventId && (
          <EventDetailPanel
            eventId={eventId}
            onClose={closeDetail}
            zone={zone}
            hourCycle={hourCycle}
          />
        )}
      </div>
    </section>
  );
}

export function useCalendarBoot(): void {
  const { calendar } = useStores();
  const settings = useApp((s) => s.settings);
  const booted = useRef(false);
  useEffect(() => {
    if (!settings || booted.current) return;
    booted.current = true;
    void calendar.getState().setFilters(settings.calendarFilters, false);
  }, [settings, calendar]);
}
