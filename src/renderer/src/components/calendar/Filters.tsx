/** The calendar's filter bar: impact, country and currency chips, category, text. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Volatility } from '../../../../shared/domain.js';
import { COUNTRY_CODES } from '../../../../shared/markets.js';
import { Flag } from '../Flag.js';
import { useCalendar, useStores } from '../../state/index.js';

/** The markets the app knows, one list (src/shared/markets.ts): a chip for each. */
const COUNTRIES: readonly string[] = COUNTRY_CODES;
/**
 * Traders think in currencies. The codes travel in the same `countries` filter: the service
 * matches each code against the release's country or its currency, so EUR brings the euro
 * area and its members, and a country chip and a currency chip together show both.
 */
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'CAD', 'AUD', 'NZD', 'CHF'];
const IMPACTS: Volatility[] = ['HIGH', 'MEDIUM', 'LOW'];

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
 * The name filter's text, applied 250 ms after the last key, and on leaving the screen inside
 * that pause (else the box, mounted again from the store, would bring back the text just
 * cleared: "CPI" and its 7 rows).
 */
function useDebouncedText() {
  const { calendar } = useStores();
  const filters = useCalendar((s) => s.filters);
  const [text, setText] = useState(filters.text);
  useEffect(() => {
    setText(filters.text);
  }, [filters.text]);
  useEffect(() => {
    if (text === filters.text) return;
    const t = setTimeout(() => void calendar.getState().setFilters({ ...filters, text }), 250);
    return () => clearTimeout(t);
  }, [text, filters, calendar]);
  const latest = useRef({ text, filters });
  latest.current = { text, filters };
  useEffect(
    () => () => {
      const { text: typed, filters: applied } = latest.current;
      if (typed !== applied.text) void calendar.getState().setFilters({ ...applied, text: typed });
    },
    [calendar],
  );
  return [text, setText] as const;
}

/** Impact, country and currency chips (a currency code shares the countries filter). */
function FilterChips() {
  const { calendar } = useStores();
  const filters = useCalendar((s) => s.filters);
  const toggle = <K extends 'volatilities' | 'countries'>(key: K, value: string) => {
    const list = filters[key] as string[];
    const next = list.includes(value) ? list.filter((x) => x !== value) : [...list, value];
    void calendar.getState().setFilters({ ...filters, [key]: next });
  };
  return (
    <div className="chips" id="calendar-chips">
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
    </div>
  );
}

function CategorySelect() {
  const { calendar } = useStores();
  const filters = useCalendar((s) => s.filters);
  const categories = useCalendar((s) => s.categories);
  return (
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
  );
}

/**
 * In a narrow window the chips fold behind one "Filters" button (CSS decides when: the
 * button only shows below the breakpoint), which also spares keyboard users 20 tab stops.
 */
export function Filters() {
  const filters = useCalendar((s) => s.filters);
  const [text, setText] = useDebouncedText();
  const [open, setOpen] = useState(false);
  const active = filters.volatilities.length + filters.countries.length;
  return (
    <div
      className={`filters${open ? ' expanded' : ''}`}
      role="toolbar"
      aria-label="Calendar filters"
    >
      <button
        type="button"
        className="chip filters-toggle"
        aria-expanded={open}
        aria-controls="calendar-chips"
        onClick={() => setOpen(!open)}
      >
        Filters{active ? ` (${active})` : ''}
      </button>
      <FilterChips />
      <CategorySelect />
      <input
        id="calendar-text-filter"
        type="search"
        placeholder="Filter: US CPI, NFP…  ( / )"
        aria-label="Filter events by name"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </div>
  );
}
