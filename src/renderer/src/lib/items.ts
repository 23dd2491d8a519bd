/** The calendar's list: a header per local day, then that day's releases. */
import type { EventDate } from '../../../shared/domain.js';
import { surpriseSize } from '../../../shared/format.js';
import { dayKey, dayLabel, rowDayKey } from './time.js';

export type Item =
  | { kind: 'day'; key: string; label: string; day: string }
  | { kind: 'row'; key: string; ed: EventDate }
  | { kind: 'now'; key: 'now' }
  /** Today has no releases (a weekend, a holiday): says so and names the next one. */
  | { kind: 'quiet-day'; key: 'quiet-day'; day: string; next: EventDate | null };

const labelOf = (ed: EventDate, zone: string) =>
  ed.isAllDay ? dayLabel(ed.dateUtc, 'UTC') : dayLabel(ed.dateUtc, zone);

/**
 * All-day items (holidays) are dated 00:00 UTC of their day: west of UTC that instant falls
 * on the evening before. Each goes first in its own calendar date instead, among the rows of
 * that local day. Timed rows keep their order.
 */
function placeAllDay(rows: readonly EventDate[], zone: string): readonly EventDate[] {
  if (!rows.some((r) => r.isAllDay)) return rows;
  const allDay = rows.filter((r) => r.isAllDay);
  const timed = rows.filter((r) => !r.isAllDay);
  const out: EventDate[] = [];
  let a = 0;
  for (const r of timed) {
    const day = rowDayKey(r, zone);
    while (a < allDay.length && rowDayKey(allDay[a] as EventDate, zone) <= day)
      out.push(allDay[a++] as EventDate);
    out.push(r);
  }
  while (a < allDay.length) out.push(allDay[a++] as EventDate);
  return out;
}

/**
 * Group rows (sorted by `dateUtc`, as the store keeps them) under day headers in `zone`.
 *
 * The local day only moves forward with time, so instead of formatting the day of each of
 * 2,000 rows, each day's last row is found by galloping then bisecting: about 2·log2(rows
 * per day) formats per day. Rows out of order (never from the store) take the plain pass.
 */
export function buildItems(sorted: readonly EventDate[], zone: string): Item[] {
  let prev = -Infinity;
  for (const r of sorted) {
    const t = Date.parse(r.dateUtc);
    if (!(t >= prev)) return buildItemsLinear(sorted, zone);
    prev = t;
  }
  const rows = placeAllDay(sorted, zone);
  const n = rows.length;
  const items: Item[] = [];
  const keyAt = (i: number) => rowDayKey(rows[i] as EventDate, zone);
  let i = 0;
  while (i < n) {
    const first = rows[i] as EventDate;
    const k = keyAt(i);
    items.push({ kind: 'day', key: `day-${k}`, label: labelOf(first, zone), day: k });
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
  for (const ed of placeAllDay(rows, zone)) {
    const k = rowDayKey(ed, zone);
    if (k !== day) {
      day = k;
      items.push({ kind: 'day', key: `day-${k}`, label: labelOf(ed, zone), day: k });
    }
    items.push({ kind: 'row', key: ed.id, ed });
  }
  return items;
}

/**
 * The "now" line, between the last printed (or past) row and the first pending one, when
 * that boundary falls inside the list. A new array; the input is kept for memoisation.
 *
 * When today (in `zone`) has no releases — a weekend, a holiday — today still gets its
 * header, a line saying so with the next release, and the now line under it: the list
 * opens on today, not on Monday's rows with the now line hidden above them.
 */
export function withNowLine(items: Item[], now: number, zone: string): Item[] {
  const quiet = withQuietToday(items, now, zone);
  if (quiet) return quiet;
  const i = items.findIndex(
    (it) => it.kind === 'row' && !it.ed.isAllDay && Date.parse(it.ed.dateUtc) >= now,
  );
  if (i <= 0) return items;
  // below no all-day row of that day (tomorrow's holiday is not past) nor its day header
  const allDay = (it: Item | undefined) => it?.kind === 'row' && it.ed.isAllDay;
  let at = i;
  while (at > 0 && allDay(items[at - 1])) at--;
  if (items[at - 1]?.kind === 'day') at--;
  if (!items.slice(0, at).some((it) => it.kind === 'row')) return items;
  return [...items.slice(0, at), { kind: 'now', key: 'now' }, ...items.slice(at)];
}

/** Today's header, the quiet-day line and the now line, when today has no rows of its own. */
function withQuietToday(items: Item[], now: number, zone: string): Item[] | null {
  if (!items.some((it) => it.kind === 'row')) return null;
  const iso = new Date(now).toISOString();
  const today = dayKey(iso, zone);
  const at = dayIndex(items, today);
  const header = at >= 0 ? items[at] : undefined;
  if (header?.kind === 'day' && header.day === today) return null;
  const insertAt = at < 0 ? items.length : at;
  const next = items
    .slice(insertAt)
    .find(
      (it): it is Extract<Item, { kind: 'row' }> =>
        it.kind === 'row' && !it.ed.isAllDay && Date.parse(it.ed.dateUtc) >= now,
    );
  return [
    ...items.slice(0, insertAt),
    { kind: 'day', key: `day-${today}`, label: dayLabel(iso, zone), day: today },
    { kind: 'now', key: 'now' },
    { kind: 'quiet-day', key: 'quiet-day', day: today, next: next?.ed ?? null },
    ...items.slice(insertAt),
  ];
}

/**
 * Which group a release sorts in: 0 a real surprise, 1 one on a release that moves nothing
 * (a bill auction's yield misses by 0.02 and scores high), 2 none (no print, no consensus).
 */
function surpriseGroup(ed: EventDate): number {
  if (ed.consensus === null || surpriseSize(ed) === null) return 2;
  return ed.volatility === 'NONE' ? 1 : 0;
}

/**
 * Each day's releases by the size of their surprise (the provider's deviation score), largest
 * first, those of no-impact releases after them; releases without one keep their time order
 * after those. Day headers stay in place.
 */
export function sortDaysBySurprise(items: Item[]): Item[] {
  const out: Item[] = [];
  let day: Extract<Item, { kind: 'row' }>[] = [];
  const flush = () => {
    const group = (it: Extract<Item, { kind: 'row' }>) => surpriseGroup(it.ed);
    const size = (it: Extract<Item, { kind: 'row' }>) => surpriseSize(it.ed) ?? -1;
    out.push(
      ...day
        .map((it, i) => [it, i] as const)
        .sort((a, b) => group(a[0]) - group(b[0]) || size(b[0]) - size(a[0]) || a[1] - b[1])
        .map(([it]) => it),
    );
    day = [];
  };
  for (const it of items) {
    if (it.kind === 'row') day.push(it);
    else {
      flush();
      if (it.kind === 'day') out.push(it);
    }
  }
  flush();
  return out;
}

/** The index of the day header for `day` (the first day at or after it), else -1. */
export function dayIndex(items: Item[], day: string): number {
  return items.findIndex((it) => it.kind === 'day' && it.day >= day);
}

/**
 * Where the calendar opens: today's header in the display zone (where "Today" jumps too),
 * else the next day that has releases, else the last day when everything has printed.
 * By the day, not by the last hour's rows: just after midnight those are yesterday's, and
 * the list would open at yesterday's first release. When the window shows `visibleRows`
 * rows and today's header would leave "now" and the next releases below the fold (a busy
 * morning on a 768-px screen), it opens a few rows above the now line instead.
 */
export function openingIndex(
  items: Item[],
  now: number,
  zone: string,
  visibleRows = Infinity,
): number {
  const today = dayIndex(items, dayKey(new Date(now).toISOString(), zone));
  const nowAt = nowIndex(items, now);
  // Room for the now line and at least three upcoming releases under it.
  if (nowAt >= 0 && (today < 0 || nowAt - today > visibleRows - 5)) {
    return Math.max(0, Math.min(nowAt - 3, nowAt - Math.floor(visibleRows / 3)));
  }
  if (today >= 0) return today;
  let idx = items.length - 1;
  while (idx > 0 && items[idx]?.kind !== 'day') idx--;
  return Math.max(0, idx);
}

/** The now line's index, else the first pending timed row's; -1 when everything is past. */
function nowIndex(items: Item[], now: number): number {
  const line = items.findIndex((it) => it.kind === 'now');
  if (line >= 0) return line;
  return items.findIndex(
    (it) => it.kind === 'row' && !it.ed.isAllDay && Date.parse(it.ed.dateUtc) >= now,
  );
}
