/** Pushed changes applied to the calendar's rows: replaced, added (under the filters), removed. */
import type { CalendarFilters, DomainChange, EventDate } from '../../../shared/domain.js';
import { matchesFilters } from './calendar-filter.js';

export interface AppliedChanges {
  rows: EventDate[];
  /** Rows that just changed, stamped for a brief highlight. */
  flashed: Record<string, number>;
  /** Whether anything shown changed. */
  touched: boolean;
  /** A pushed row the filters cannot judge (a category filter): ask the store again. */
  reload: boolean;
}

const byTime = (a: EventDate, b: EventDate) => a.dateUtc.localeCompare(b.dateUtc);

/** A new rows array (the input is left as it is) with `changes` applied. */
export function applyChangesTo(
  current: { rows: EventDate[]; flashed: Record<string, number> },
  changes: readonly DomainChange[],
  ctx: { window: { from: number; to: number }; filters: CalendarFilters; now: number },
): AppliedChanges {
  const inWindow = (iso: string) => {
    const t = Date.parse(iso);
    return t >= ctx.window.from && t < ctx.window.to;
  };
  let rows = current.rows;
  const flashed = { ...current.flashed };
  let touched = false;
  let reload = false;
  for (const c of changes) {
    if ('eventDate' in c && c.eventDate && c.kind !== 'eventDateRemoved') {
      const ed = c.eventDate;
      const i = rows.findIndex((r) => r.id === ed.id);
      if (i >= 0) {
        rows = rows.slice();
        rows[i] = ed;
        if (c.kind === 'released' || c.kind === 'revised' || c.kind === 'rescheduled')
          flashed[ed.id] = ctx.now;
        touched = true;
      } else if (c.kind === 'eventDateAdded' && inWindow(ed.dateUtc)) {
        // a pushed row obeys the filters like a fetched one
        const fits = matchesFilters(ed, ctx.filters);
        if (fits === null) reload = true;
        else if (fits) {
          rows = [...rows, ed].sort(byTime);
          touched = true;
        }
      }
      if (c.kind === 'rescheduled') rows = rows.slice().sort(byTime);
    } else if (c.kind === 'eventDateRemoved') {
      rows = rows.filter((r) => r.id !== c.eventDateId);
      touched = true;
    }
  }
  return { rows, flashed, touched, reload };
}
