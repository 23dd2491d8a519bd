/**
 * When each indicator prints, on the pattern its agency or central bank follows: Nonfarm
 * Payrolls the first Friday at 8:30 New York time, US CPI once a month near the 12th, the
 * FOMC eight Wednesdays a year, the ECB every six weeks on a Thursday, Thanksgiving on the
 * fourth Thursday of November. Local clock times follow daylight saving in the country's zone.
 */
import type { Indicator } from './indicators.js';

const DAY = 86_400_000;

/** The zone whose clock each country's releases keep. */
const ZONES: Record<string, string> = {
  US: 'America/New_York',
  EMU: 'Europe/Berlin',
  DE: 'Europe/Berlin',
  UK: 'Europe/London',
  JP: 'Asia/Tokyo',
  CN: 'Asia/Shanghai',
  CA: 'America/Toronto',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  CH: 'Europe/Zurich',
};

const parts = new Map<string, Intl.DateTimeFormat>();
/**
 * Offsets by zone and UTC day (NaN: the day has a clock change), as Intl is slow and a
 * calendar asks for the same few zone-days thousands of times.
 */
const dayOffsets = new Map<string, number>();

/** Local minus UTC, in ms, at instant `t` in `zone`. */
function offsetAt(t: number, zone: string): number {
  const day = Math.floor(t / DAY);
  const key = `${zone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    if (dayOffsets.size > 100_000) dayOffsets.clear();
    const start = computeOffset(day * DAY, zone);
    offset = start === computeOffset((day + 1) * DAY, zone) ? start : NaN;
    dayOffsets.set(key, offset);
  }
  return Number.isNaN(offset) ? computeOffset(t, zone) : offset;
}

function computeOffset(t: number, zone: string): number {
  let f = parts.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    parts.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, Number(x.value)]));
  return (
    Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - Math.floor(t / 60_000) * 60_000
  );
}

/** The calendar date (as midnight UTC) a release at `t` falls on in its country's zone. */
export function localDate(t: number, country: string): Date {
  const local = new Date(t + offsetAt(t, ZONES[country] ?? 'UTC'));
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
}

/** The UTC instant of a local wall-clock time in `zone`. */
function zonedTime(y: number, m: number, d: number, minutes: number, zone: string): number {
  const guess = Date.UTC(y, m - 1, d) + minutes * 60_000;
  let t = guess - offsetAt(guess, zone);
  t = guess - offsetAt(t, zone);
  return t;
}

/**
 * The indicators' times are written in UTC as of late November (standard time in the north,
 * summer time in the south); the local clock they stand for is kept all year.
 */
function localMinutes(ind: Indicator, zone: string): number {
  const [hh, mm] = ind.time.split(':').map(Number) as [number, number];
  const ref = Date.UTC(2025, 10, 15, hh, mm);
  const local = ref + offsetAt(ref, zone);
  const d = new Date(local);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
}

const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const isBusiness = (y: number, m: number, d: number) => {
  const w = weekday(y, m, d);
  return w !== 0 && w !== 6;
};

/** The nth (1-based; -1 = last) given weekday (0 = Sunday) of a month. */
function nthWeekday(y: number, m: number, wd: number, n: number): number {
  if (n < 0) {
    let d = daysIn(y, m);
    while (weekday(y, m, d) !== wd) d--;
    return d;
  }
  let d = 1;
  while (weekday(y, m, d) !== wd) d++;
  return d + (n - 1) * 7;
}

/** The business day nearest a day of the month (ties go earlier). */
function nearBusiness(y: number, m: number, day: number): number {
  const d = Math.min(day, daysIn(y, m));
  for (let k = 0; k < 4; k++) {
    if (d - k >= 1 && isBusiness(y, m, d - k)) return d - k;
    if (d + k <= daysIn(y, m) && isBusiness(y, m, d + k)) return d + k;
  }
  return d;
}
const firstBusiness = (y: number, m: number, nth = 1) => {
  let d = 0;
  for (let k = 0; k < nth; k++)
    do d++;
    while (!isBusiness(y, m, d));
  return d;
};
const lastBusiness = (y: number, m: number) => {
  let d = daysIn(y, m);
  while (!isBusiness(y, m, d)) d--;
  return d;
};

const MON = 1;
const TUE = 2;
const WED = 3;
const THU = 4;
const FRI = 5;

type DayRule = (y: number, m: number) => number | null;
const inMonths =
  (months: number[], rule: DayRule): DayRule =>
  (y, m) =>
    months.includes(m) ? rule(y, m) : null;

/** The day of the month of each known release (null: none that month). */
const RULES: Record<string, DayRule> = {
  'us-nfp': (y, m) => nthWeekday(y, m, FRI, 1),
  'us-unemployment': (y, m) => nthWeekday(y, m, FRI, 1),
  'us-cpi-mm': (y, m) => nearBusiness(y, m, 12),
  'us-cpi-yy': (y, m) => nearBusiness(y, m, 12),
  'us-core-pce': (y, m) => nthWeekday(y, m, FRI, -1),
  'us-gdp': inMonths([1, 4, 7, 10], (y, m) => nthWeekday(y, m, THU, -1)),
  'us-ism-mfg': (y, m) => firstBusiness(y, m),
  'us-ism-svc': (y, m) => firstBusiness(y, m, 3),
  'us-retail': (y, m) => nearBusiness(y, m, 15),
  'us-trade': (y, m) => nearBusiness(y, m, 5),
  'us-housing': (y, m) => nearBusiness(y, m, 18),
  'us-10y': (y, m) => nearBusiness(y, m, 10),
  // FOMC: eight Wednesdays a year; the chair's press conference follows the statement
  'us-fed': inMonths([1, 3, 4, 6, 7, 9, 10, 12], (y, m) =>
    nthWeekday(y, m, WED, [1, 4, 7, 10].includes(m) ? -1 : m === 12 ? 2 : 3),
  ),
  'us-powell': inMonths([1, 3, 4, 6, 7, 9, 10, 12], (y, m) =>
    nthWeekday(y, m, WED, [1, 4, 7, 10].includes(m) ? -1 : m === 12 ? 2 : 3),
  ),
  'emu-hicp': (y, m) => nearBusiness(y, m, 17),
  'emu-gdp': inMonths([1, 4, 7, 10], (y, m) => nearBusiness(y, m, 30)),
  'emu-pmi': (y, m) => nearBusiness(y, m, 23),
  'de-zew': (y, m) => nthWeekday(y, m, TUE, 3),
  'de-ifo': (y, m) => nearBusiness(y, m, 24),
  'de-cpi': (y, m) => lastBusiness(y, m),
  'de-pmi': (y, m) => nearBusiness(y, m, 23),
  'uk-cpi': (y, m) => nthWeekday(y, m, WED, 3),
  'uk-boe': inMonths([2, 3, 5, 6, 8, 9, 11, 12], (y, m) =>
    nthWeekday(y, m, THU, [2, 5, 8, 11].includes(m) ? 1 : 3),
  ),
  'uk-gdp': (y, m) => nearBusiness(y, m, 13),
  'uk-claimant': (y, m) => nthWeekday(y, m, TUE, 3),
  'uk-retail': (y, m) => nthWeekday(y, m, FRI, 3),
  'uk-election': inMonths([11], (y, m) => nthWeekday(y, m, WED, -1)),
  'jp-boj': inMonths([1, 3, 4, 6, 7, 9, 10, 12], (y, m) => nthWeekday(y, m, FRI, 3)),
  'jp-tankan': inMonths([4, 7, 10, 12], (y, m) =>
    m === 12 ? nearBusiness(y, m, 13) : firstBusiness(y, m),
  ),
  'jp-cpi': (y, m) => nthWeekday(y, m, FRI, 3),
  'jp-trade': (y, m) => nearBusiness(y, m, 18),
  'cn-lpr': (y, m) => nearBusiness(y, m, 20),
  'cn-pmi': (y, m) => daysIn(y, m),
  'cn-cpi': (y, m) => nearBusiness(y, m, 10),
  'cn-trade': (y, m) => nearBusiness(y, m, 7),
  'ca-boc': inMonths([1, 3, 4, 6, 7, 9, 10, 12], (y, m) =>
    nthWeekday(y, m, WED, [1, 4, 10].includes(m) ? -1 : m === 12 ? 2 : m === 9 ? 1 : 2),
  ),
  'ca-employment': (y, m) => nthWeekday(y, m, FRI, 1),
  'ca-cpi': (y, m) => nthWeekday(y, m, TUE, 3),
  'au-rba': inMonths([2, 4, 5, 7, 8, 9, 11, 12], (y, m) => nthWeekday(y, m, TUE, 1)),
  'au-employment': (y, m) => nthWeekday(y, m, THU, 3),
  'au-cpi': (y, m) => nthWeekday(y, m, WED, -1),
  'nz-rbnz': inMonths([2, 4, 5, 7, 8, 10, 11], (y, m) => nthWeekday(y, m, WED, m === 11 ? -1 : 3)),
  'ch-snb': inMonths([3, 6, 9, 12], (y, m) => nthWeekday(y, m, THU, 3)),
  'ch-cpi': (y, m) => nearBusiness(y, m, 3),
  'ch-kof': (y, m) => lastBusiness(y, m),
  // Thanksgiving: the fourth Thursday of November
  'us-holiday': inMonths([11], (y, m) => nthWeekday(y, m, THU, 4)),
};

/** Every `days` from an anchor date: the ECB meets every six weeks on a Thursday. */
const CYCLES: Record<string, { anchor: string; days: number }> = {
  'emu-ecb': { anchor: '2026-02-05', days: 42 },
  'emu-lagarde': { anchor: '2026-02-05', days: 42 },
};

/** A stable day of the month for the many secondary monthly releases (seeded by the key). */
function keyDay(key: string): number {
  let h = 0;
  for (const c of key) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 2 + (h % 25);
}

/**
 * Every release time of `ind` in [from, to), oldest first. `adhoc` speakers are left to the
 * caller (they have no schedule); `pick` draws for them, given the day.
 */
export function releaseTimes(
  ind: Indicator,
  from: number,
  to: number,
  pick: (dayMs: number) => number = Math.random,
): number[] {
  const zone = ZONES[ind.country] ?? 'UTC';
  const holiday = ind.category === 'holidays';
  const minutes = localMinutes(ind, zone);
  const at = (y: number, m: number, d: number) =>
    holiday ? Date.UTC(y, m - 1, d) : zonedTime(y, m, d, minutes, zone);
  const out: number[] = [];
  const start = new Date(from - 2 * DAY);
  const end = to + 2 * DAY;
  if (ind.frequency === 'weekly' || ind.frequency === 'adhoc') {
    for (
      let t = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
      t < end;
      t += DAY
    ) {
      const d = new Date(t);
      const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
      const wd = weekday(y, m, day);
      const hit =
        ind.frequency === 'weekly'
          ? wd === (ind.weekday ?? MON) % 7
          : wd !== 0 && wd !== 6 && pick(t) < 0.3; // a speaker on about one weekday in three
      if (hit) out.push(at(y, m, day));
    }
  } else if (CYCLES[ind.key]) {
    const { anchor, days } = CYCLES[ind.key] as { anchor: string; days: number };
    const a = Date.parse(`${anchor}T00:00:00Z`);
    const first = a + Math.floor((start.getTime() - a) / (days * DAY)) * days * DAY;
    for (let t = first; t < end; t += days * DAY) {
      const d = new Date(t);
      out.push(at(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()));
    }
  } else {
    const rule = RULES[ind.key] ?? defaultRule(ind);
    for (
      let y = start.getUTCFullYear(), m = start.getUTCMonth() + 1;
      Date.UTC(y, m - 1, 1) < end;
      m === 12 ? ((m = 1), y++) : m++
    ) {
      const d = rule(y, m);
      if (d !== null) out.push(at(y, m, d));
    }
  }
  return out.filter((t) => t >= from && t < to);
}

function defaultRule(ind: Indicator): DayRule {
  const day = keyDay(ind.key);
  if (ind.frequency === 'quarterly')
    return inMonths([1, 4, 7, 10], (y, m) => nearBusiness(y, m, day));
  if (ind.frequency === 'meeting')
    return inMonths([2, 5, 8, 11], (y, m) => nearBusiness(y, m, day));
  return (y, m) => nearBusiness(y, m, day);
}
