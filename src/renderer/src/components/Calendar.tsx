import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { EventDate, Volatility } from '../../../shared/domain.js';
import { formatValue, surpriseOf, volatilityRank } from '../../../shared/format.js';
import { flagOf } from '../lib/flags.js';
import { Flag } from './Flag.js';
import { buildItems, type Item } from '../lib/items.js';
import { countdown, timeLabel, warmFormatters } from '../lib/time.js';
import { useNow } from '../lib/use-now.js';
import { useApp, useCalendar, useStores } from '../state/index.js';
import { EventDetailPanel } from './EventDetail.js';

export const ROW_HEIGHT = 38;
const OVERSCAN = 8;
const COUNTRIES = ['US', 'EMU', 'DE', 'UK', 'JP', 'CN', 'CA', 'AU', 'NZ', 'CH'];
/**
 * Traders think in currencies. The codes travel in the same `countries` filter: the service
 * matches each code against the release's country or its currency, so EUR brings the euro
 * area and its members, and a country chip and a currency chip together show both.
 */
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'CAD', 'AUD', 'NZD', 'CHF'];
const IMPACTS: Volatility[] = ['HIGH', 'MEDIUM', 'LOW'];

function Impact({ v }: { v: string }) {
  const rank = volatilityRank(v);
  return (
    <span className={`impact impact-${rank}`} title={`${v.toLowerCase()} impact`}>
      {[1, 2, 3].map((i) => (
        <span key={i} className={i <= rank ? 'bar on' : 'bar'} aria-hidden="true" />
      ))}
      <span className="sr-only">{v.toLowerCase()} impact</span>
    </span>
  );
}

export function ValueCells({ ed }: { ed: EventDate }) {
  const s = surpriseOf(ed);
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency);
  return (
    <>
      <span role="gridcell" className={`num actual ${s ?? ''}`} data-col="actual">
        {ed.actual === null ? '' : f(ed.actual)}
        {s === 'beat' && (
          <span className="cue" aria-label="beat expectations">
            {' '}
            ▲
          </span>
        )}
        {s === 'miss' && (
          <span className="cue" aria-label="missed expectations">
            {' '}
            ▼
          </span>
        )}
      </span>
      <span role="gridcell" className="num" data-col="consensus">
        {f(ed.consensus)}
      </span>
      <span role="gridcell" className="num" data-col="previous">
        {ed.revised !== null && ed.revised !== ed.previous ? (
          <>
            {f(ed.revised)}{' '}
            <span className="revised" title={`revised from ${f(ed.previous)}`}>
              (rev. from {f(ed.previous)})
            </span>
          </>
        ) : (
          f(ed.previous)
        )}
      </span>
    </>
  );
}

function Filters() {
  const { calendar } = useStores();
  const filters = useCalendar((s) => s.filters);
  const categories = useCalendar((s) => s.categories);
  const [text, setText] = useState(filters.text);
  useEffect(() => setText(filters.text), [filters.text]);
  useEffect(() => {
    if (text === filters.text) return;
    const t = setTimeout(() => void calendar.getState().setFilters({ ...filters, text }), 250);
    return () => clearTimeout(t);
  }, [text, filters, calendar]);
  const toggle = <K extends 'volatilities' | 'countries'>(key: K, value: string) => {
    const list = filters[key] as string[];
    const next = list.includes(value) ? list.filter((x) => x !== value) : [...list, value];
    void calendar.getState().setFilters({ ...filters, [key]: next });
  };
  return (
    <div className="filters" role="toolbar" aria-label="Calendar filters">
      <Chips
        label="Impact"
        values={IMPACTS}
        pressed={(v) => filters.volatilities.includes(v)}
        onToggle={(v) => toggle('volatilities', v)}
        render={(v) => v[0] + v.slice(1).toLowerCase()}
      />
      <Chips
        label="Countries"
        values={COUNTRIES}
        pressed={(c) => filters.countries.includes(c)}
        onToggle={(c) => toggle('countries', c)}
        render={(c) => (
          <>
            <Flag code={c} />
            {c}
          </>
        )}
      />
      {/* Currency codes share the countries filter: the store matches a code against either. */}
      <Chips
        label="Currencies"
        values={CURRENCIES}
        pressed={(c) => filters.countries.includes(c)}
        onToggle={(c) => toggle('countries', c)}
        render={(c) => c}
      />
      <label className="select">
        <span className="sr-only">Category</span>
        <select
          value={filters.categories[0] ?? ''}
          onChange={(e) =>
            void calendar
              .getState()
              .setFilters({ ...filters, categories: e.target.value ? [e.target.value] : [] })
          }
        >
          <option value="">All categories</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <input
        id="calendar-text-filter"
        type="search"
        placeholder="Filter events  ( / )"
        aria-label="Filter events by name"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </div>
  );
}

function NextRelease({ rows }: { rows: EventDate[] }) {
  const now = useNow(1000);
  const next =
    rows.find(
      (r) => r.actual === null && Date.parse(r.dateUtc) > now && volatilityRank(r.volatility) >= 2,
    ) ?? rows.find((r) => r.actual === null && Date.parse(r.dateUtc) > now);
  if (!next) return null;
  return (
    <div className="next-release" aria-live="off">
      Next: <Flag code={next.countryCode} />
      <strong>
        {next.countryCode} {next.name}
      </strong>{' '}
      <span className="countdown">{countdown(Date.parse(next.dateUtc), now)}</span>
    </div>
  );
}

/** A group of toggle chips: one button per value, pressed while the value is selected. */
function Chips<T extends string>(props: {
  label: string;
  values: readonly T[];
  pressed: (v: T) => boolean;
  onToggle: (v: T) => void;
  render: (v: T) => ReactNode;
}) {
  return (
    <div className="chip-group" role="group" aria-label={props.label}>
      {props.values.map((v) => (
        <button
          key={v}
          type="button"
          className="chip"
          aria-pressed={props.pressed(v)}
          onClick={() => props.onToggle(v)}
        >
          {props.render(v)}
        </button>
      ))}
    </div>
  );
}

/**
 * An invisible row with every text style a calendar row uses (flag emoji, weights, tabular
 * figures), laid out while the calendar is being fetched: a cold tab resolves and shapes
 * these fonts once, here, instead of inside the first layout of the real rows. Hidden from
 * sight, pointer and assistive technology; gone once rows arrive.
 */
function FontWarmup() {
  return (
    <div className="event-row font-warmup" aria-hidden="true">
      <span className="time">08:30</span>
      <span>{flagOf('US')} US</span>
      <span>USD</span>
      <span>
        <Impact v="HIGH" />
      </span>
      <span className="name">
        Nonfarm Payrolls<span className="tag">speech</span>
      </span>
      <span className="num actual beat">
        275K<span className="cue"> ▲</span>
      </span>
      <span className="num">-0.3%</span>
      <span className="num">
        4.25% <span className="revised">(rev. from 4.5%)</span>
      </span>
    </div>
  );
}

/** Where the calendar opens: the day of the next release (or the last day when all printed). */
function openingTop(items: Item[], now: number): number {
  const nextIdx = items.findIndex(
    (it) => it.kind === 'row' && Date.parse(it.ed.dateUtc) >= now - 3_600_000,
  );
  let idx = nextIdx < 0 ? items.length - 1 : nextIdx;
  while (idx > 0 && items[idx]?.kind !== 'day') idx--;
  return idx > 0 ? idx * ROW_HEIGHT : 0;
}

export function Calendar() {
  const { app } = useStores();
  const rows = useCalendar((s) => s.rows);
  const loading = useCalendar((s) => s.loading);
  const flashed = useCalendar((s) => s.flashed);
  const settings = useApp((s) => s.settings);
  const eventId = useApp((s) => s.eventId);
  const zone = settings?.timeZone ?? 'system';
  const hourCycle = settings?.hourCycle ?? 'h23';
  const items = useMemo(() => buildItems(rows, zone), [rows, zone]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [focus, setFocus] = useState<number>(-1);
  const now = useNow(30_000);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 600));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Open on today the first time rows arrive. The position is worked out during that render,
  // so the first commit already holds the rows on screen (no second render after scrolling).
  const [opened, setOpened] = useState(false);
  if (!opened && items.length > 0) {
    setOpened(true);
    setScrollTop(openingTop(items, now));
  }
  const applied = useRef(false);
  useLayoutEffect(() => {
    if (!opened || applied.current || !scroller.current) return;
    applied.current = true;
    if (scrollTop <= 0) return;
    const el = scroller.current;
    el.scrollTop = scrollTop;
    // near the end of the list the browser clamps the position: follow it before the paint
    if (el.scrollTop !== scrollTop) setScrollTop(el.scrollTop);
  }, [opened, scrollTop]);

  // Build the formatters while the calendar is fetched rather than after it arrives (the first
  // Intl.DateTimeFormat of a tab loads locale data); after the fetch has been sent.
  useEffect(() => {
    if (!settings) return;
    const t = setTimeout(() => warmFormatters(zone, hourCycle), 0);
    return () => clearTimeout(t);
  }, [settings, zone, hourCycle]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === '/' && (e.target as HTMLElement).tagName !== 'INPUT') {
        e.preventDefault();
        document.getElementById('calendar-text-filter')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The first screenful is painted without overscan (the rows above and below the viewport
  // would add ~40% to the first layout); they follow once that frame is on screen.
  const [overscan, setOverscan] = useState(0);
  useEffect(() => {
    if (!opened || overscan) return;
    let t: ReturnType<typeof setTimeout> | undefined;
    const raf = requestAnimationFrame(() => (t = setTimeout(() => setOverscan(OVERSCAN), 0)));
    return () => {
      cancelAnimationFrame(raf);
      clearTimeout(t);
    };
  }, [opened, overscan]);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + overscan);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const rowIdx = (from: number, dir: 1 | -1) => {
      for (let i = from + dir; i >= 0 && i < items.length; i += dir)
        if (items[i]?.kind === 'row') return i;
      return from;
    };
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = rowIdx(
        focus < 0 ? Math.floor(scrollTop / ROW_HEIGHT) - 1 : focus,
        e.key === 'ArrowDown' ? 1 : -1,
      );
      setFocus(next);
      const el = scroller.current;
      if (el) {
        const top = next * ROW_HEIGHT;
        if (top < el.scrollTop + ROW_HEIGHT) el.scrollTop = Math.max(0, top - ROW_HEIGHT);
        else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight)
          el.scrollTop = top + 2 * ROW_HEIGHT - el.clientHeight;
      }
    } else if (e.key === 'Enter' && focus >= 0) {
      const it = items[focus];
      if (it?.kind === 'row') app.getState().openEvent(it.ed.eventId);
    }
  };

  const focused = items[focus];
  return (
    <section className="calendar-screen" aria-label="Economic calendar">
      <header className="screen-header">
        <h1>Calendar</h1>
        <NextRelease rows={rows} />
      </header>
      <Filters />
      <div className="calendar-body">
        <div
          className="grid"
          role="grid"
          aria-label="Economic releases"
          aria-rowcount={items.length + 1}
          aria-activedescendant={focused?.kind === 'row' ? `row-${focused.ed.id}` : undefined}
          tabIndex={0}
          onKeyDown={onKeyDown}
          ref={scroller}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div role="row" aria-rowindex={1} className="grid-head">
            {['Time', 'Country', 'Ccy', 'Impact', 'Event', 'Actual', 'Consensus', 'Previous'].map(
              (h) => (
                <span
                  key={h}
                  role="columnheader"
                  className={['Actual', 'Consensus', 'Previous'].includes(h) ? 'num' : undefined}
                >
                  {h}
                </span>
              ),
            )}
          </div>
          {loading && rows.length === 0 && <p className="muted pad">Loading the calendar…</p>}
          {!loading && rows.length === 0 && (
            <p className="muted pad">No releases match these filters.</p>
          )}
          {rows.length === 0 && <FontWarmup />}
          <div style={{ height: items.length * ROW_HEIGHT, position: 'relative' }}>
            {items.slice(first, last).map((it, k) => {
              const index = first + k;
              const style = {
                position: 'absolute' as const,
                top: index * ROW_HEIGHT,
                height: ROW_HEIGHT,
                left: 0,
                right: 0,
              };
              if (it.kind === 'day') {
                return (
                  <div
                    key={it.key}
                    role="row"
                    aria-rowindex={index + 2}
                    className="day-row"
                    style={style}
                  >
                    <span role="rowheader">{it.label}</span>
                  </div>
                );
              }
              const ed = it.ed;
              const isFlash =
                flashed[ed.id] !== undefined && now - (flashed[ed.id] as number) < 4000;
              const past = ed.actual !== null || Date.parse(ed.dateUtc) < now;
              return (
                <div
                  key={it.key}
                  id={`row-${ed.id}`}
                  role="row"
                  aria-rowindex={index + 2}
                  aria-selected={focus === index}
                  data-testid="event-row"
                  data-event-date-id={ed.id}
                  className={`event-row${isFlash ? ' flash' : ''}${focus === index ? ' focused' : ''}${past ? ' past' : ''}${eventId === ed.eventId ? ' open' : ''}`}
                  style={style}
                  onClick={() => {
                    setFocus(index);
                    app.getState().openEvent(ed.eventId);
                  }}
                >
                  <span role="gridcell" data-col="time" className="time">
                    {ed.isAllDay ? 'All day' : timeLabel(ed.dateUtc, zone, hourCycle)}
                  </span>
                  <span role="gridcell" data-col="country">
                    <Flag code={ed.countryCode} />
                    {ed.countryCode}
                  </span>
                  <span role="gridcell" data-col="currency">
                    {ed.currencyCode}
                  </span>
                  <span role="gridcell" data-col="impact">
                    <Impact v={ed.volatility} />
                  </span>
                  <span role="gridcell" data-col="name" className="name">
                    {ed.name}
                    {ed.isSpeech && <span className="tag">speech</span>}
                    {ed.isTentative && <span className="tag">tentative</span>}
                  </span>
                  <ValueCells ed={ed} />
                </div>
              );
            })}
          </div>
        </div>
        {eventId && (
          <EventDetailPanel
            eventId={eventId}
            onClose={() => app.getState().openEvent(null)}
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
