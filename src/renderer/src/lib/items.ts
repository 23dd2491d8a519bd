/** The calendar's list: a header per local day, then that day's releases. */
import type { EventDate } from '../../../shared/domain.js';
import { dayKey, dayLabel } from './time.js';

export type Item =
  { kind: 'day'; key: string; label: string } | { kind: 'row'; key: string; ed: EventDate };

/**
 * Group rows (sorted by `dateUtc`, as the store keeps them) under day headers in `zone`.
 *
 * The local day only moves forward with time, so instead of formatting the day of each of
 * 2,000 rows, each day's last row is found by galloping then bisecting: about 2·log2(rows
 * per day) formats per day. Rows out of order (never from the store) take the plain pass.
 */
export function buildItems(rows: readonly EventDate[], zone: string): Item[] {
  const n = rows.length;
  let prev = -Infinity;
  for (const r of rows) {
    const t = Date.parse(r.dateUtc);
    if (!(t >= prev)) return buildItemsLinear(rows, zone);
    prev = t;
  }
  const items: Item[] = [];
  const keyAt = (i: number) => dayKey((rows[i] as EventDate).dateUtc, zone);
  let i = 0;
  while (i < n) {
    const first = rows[i] as EventDate;
    const k = keyAt(i);
    items.push({ kind: 'day', key: `day-${k}`, label: dayLabel(first.dateUtc, zone) });
    // rows[lo] is on day k; rows[hi] is not (or hi === n)
    let lo = i;
    let step = 1;
    let hi = i + 1;
    while (hi < n && keyAt(hi) === k) {
      lo = hi;
      step *= 2;
      hi = i + step;
    }
    if (hi > n) hi = n;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (keyAt(mid) === k) lo = mid;
      else hi = mid;
    }
    for (let j = i; j <= lo; j++) {
      const ed = rows[j] as EventDate;
      items.push({ kind: 'row', key: ed.id, ed });
    }
    i = lo + 1;
  }
  return items;
}

/** One format per row: the reference the fast path must agree with. */
export function buildItemsLinear(rows: readonly EventDate[], zone: string): Item[] {
  const items: Item[] = [];
  let day = '';
  for (const ed of rows) {
    const k = dayKey(ed.dateUtc, zone);
    if (k !== day) {
      day = k;
      items.push({ kind: 'day', key: `day-${k}`, label: dayLabel(ed.dateUtc, zone) });
    }
    items.push({ kind: 'row', key: ed.id, ed });
  }
  return items;
}
