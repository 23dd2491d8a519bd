/**
 * When each indicator prints, on the pattern its agency or central bank follows: Nonfarm
 * Payrolls the first Friday at 8:30 New York time, US CPI once a month near the 12th,
 * central-bank decisions on the days the banks published (central-bank-dates.ts), no US
 * print on a federal holiday and no Fed speaker in the FOMC blackout. Local clock times
 * follow daylight saving in the country's zone. The rules: docs/demo-calendar.md.
 */
import { BANK_OF, decisionDays } from './central-bank-dates.js';
import type { Indicator } from './indicators.js';
import { isMakeUpWorkday, isMarketHoliday } from './market-holidays.js';
import { isUsHoliday } from './us-holidays.js';

const DAY = 86_400_000;

/** The zone whose clock each country's releases keep. */
const ZONES: Record<string, string> = {
  US: 'America/New_York',
  EMU: 'Europe/Berlin',
  DE: 'Europe/Berlin',
  FR: 'Europe/Paris',
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
/**
 * Offsets at UTC midnights, by zone and day: a day's end is the next day's start, so each
 * midnight asks Intl once, not twice (half a first run's Intl calls: the demo's start).
 */
const midnightOffsets = new Map<string, number>();

function offsetAtMidnight(day: number, zone: string): number {
  const key = `${zone}|${day}`;
  let offset = midnightOffsets.get(key);
  if (offset === undefined) {
    if (midnightOffsets.size > 100_000) midnightOffsets.clear();
    offset = computeOffset(day * DAY, zone);
    midnightOffsets.set(key, offset);
  }
  return offset;
}

/** Local minus UTC, in ms, at instant `t` in `zone`. */
function offsetAt(t: number, zone: string): number {
  const day = Math.floor(t / DAY);
  const key = `${zone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    if (dayOffsets.size > 100_000) dayOffsets.clear();
    const start = offsetAtMidnight(day, zone);
    offset = start === offsetAtMidnight(day + 1, zone) ? start : NaN;
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
/** Whether a day of the month is a business day in the rules' count. */
type IsOpen = (y: number, m: number, d: number) => boolean;
const isBusiness: IsOpen = (y, m, d) => {
  const w = weekday(y, m, d);
  return w !== 0 && w !== 6;
};
/**
 * A country's business days: the weekdays and the weekend days it works to make up for a
 * holiday (China's 调休), on which its agencies publish as on any working day.
 */
const businessIn =
  (country: string): IsOpen =>
  (y, m, d) =>
    isBusiness(y, m, d) || isMakeUpWorkday(country, Date.UTC(y, m - 1, d));
const CN_OPEN = businessIn('CN');

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
function nearBusiness(y: number, m: number, day: number, open = isBusiness): number {
  const d = Math.min(day, daysIn(y, m));
  for (let k = 0; k < 4; k++) {
    if (d - k >= 1 && open(y, m, d - k)) return d - k;
    if (d + k <= daysIn(y, m) && open(y, m, d + k)) return d + k;
  }
  return d;
}
const firstBusiness = (y: number, m: number, nth = 1, open = isBusiness) => {
  let d = 0;
  for (let k = 0; k < nth; k++)
    do d++;
    while (!open(y, m, d));
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

/** The jobs report: the first Friday, the second when the first is New Year's Day. */
const jobsFriday = (y: number, m: number) => {
  const first = nthWeekday(y, m, FRI, 1);
  return m === 1 && first === 1 ? 8 : first;
};
const flashPmiDay: DayRule = (y, m) => nearBusiness(y, m, 23);
const inMonths =
  (months: number[], rule: DayRule): DayRule =>
  (y, m) =>
    months.includes(m) ? rule(y, m) : null;

/** The day of the month of each known release (null: none that month). */
const RULES: Record<string, DayRule> = {
  'us-nfp': (y, m) => jobsFriday(y, m),
  'us-unemployment': (y, m) => jobsFriday(y, m),
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
  'emu-hicp': (y, m) => nearBusiness(y, m, 17),
  'emu-gdp': inMonths([1, 4, 7, 10], (y, m) => nearBusiness(y, m, 30)),
  'de-zew': (y, m) => nthWeekday(y, m, TUE, 3),
  'de-ifo': (y, m) => nearBusiness(y, m, 24),
  'de-cpi': (y, m) => lastBusiness(y, m),
  'uk-cpi': (y, m) => nthWeekday(y, m, WED, 3),
  'uk-gdp': (y, m) => nearBusiness(y, m, 13),
  'uk-claimant': (y, m) => nthWeekday(y, m, TUE, 3),
  'uk-retail': (y, m) => nthWeekday(y, m, FRI, 3),
  'uk-election': inMonths([11], (y, m) => nthWeekday(y, m, WED, -1)),
  'jp-tankan': inMonths([4, 7, 10, 12], (y, m) =>
    m === 12 ? nearBusiness(y, m, 13) : firstBusiness(y, m),
  ),
  'jp-cpi': (y, m) => nthWeekday(y, m, FRI, 3),
  'jp-trade': (y, m) => nearBusiness(y, m, 18),
  // China's figures count its make-up working days as business days; NBS's PMI comes on the
  // month's last day, whatever the weekday
  'cn-lpr': (y, m) => nearBusiness(y, m, 20, CN_OPEN),
  'cn-pmi': (y, m) => daysIn(y, m),
  'cn-cpi': (y, m) => nearBusiness(y, m, 10, CN_OPEN),
  'cn-trade': (y, m) => nearBusiness(y, m, 7, CN_OPEN),
  'ca-employment': (y, m) => nthWeekday(y, m, FRI, 1),
  'ca-cpi': (y, m) => nthWeekday(y, m, TUE, 3),
  'au-employment': (y, m) => nthWeekday(y, m, THU, 3),
  'au-cpi': (y, m) => nthWeekday(y, m, WED, -1),
  'ch-cpi': (y, m) => nearBusiness(y, m, 3),
  'ch-kof': (y, m) => lastBusiness(y, m),
  // ADP on the Wednesday and JOLTS on the Tuesday of the week of the jobs report
  'us-secondary-6': (y, m) => jobsFriday(y, m) - 2,
  'us-secondary-5': (y, m) => jobsFriday(y, m) - 3,
  // the RatingDog (ex-Caixin) manufacturing PMI on the first business day of the month (a
  // make-up day counts; one in a holiday then moves to the next working day)
  'cn-secondary-2': (y, m) => firstBusiness(y, m, 1, CN_OPEN),
  // Thanksgiving: the fourth Thursday of November
  'us-holiday': inMonths([11], (y, m) => nthWeekday(y, m, THU, 4)),
  // S&P Global's and HCOB's flash PMIs: one day about the 23rd for every region
  'emu-pmi': flashPmiDay,
  // Stats NZ: CPI the third week after a quarter, the labour market survey the first
  // Wednesday of its second month, GDP the third Thursday of the last month
  'nz-cpi': inMonths([1, 4, 7, 10], (y, m) => nearBusiness(y, m, 20)),
  'nz-unemployment': inMonths([2, 5, 8, 11], (y, m) => nthWeekday(y, m, WED, 1)),
  'nz-gdp': inMonths([3, 6, 9, 12], (y, m) => nthWeekday(y, m, THU, 3)),
  // NBS: GDP about the 16th of the month after a quarter
  'cn-gdp': inMonths([1, 4, 7, 10], (y, m) => nearBusiness(y, m, 16, CN_OPEN)),
};

/**
 * Figures printed in one release with another (Core CPI with CPI, hourly earnings with the
 * jobs report): the same day as the release they belong to, at the same time.
 */
const SAME_RELEASE: Record<string, string> = {
  'us-core-cpi-mm': 'us-cpi-mm',
  'us-core-cpi-yy': 'us-cpi-mm',
  'us-ahe-mm': 'us-nfp',
  'us-core-retail': 'us-retail',
  'emu-core-hicp': 'emu-hicp',
  'uk-core-cpi': 'uk-cpi',
  'uk-unemployment': 'uk-claimant',
  'uk-secondary-2': 'uk-claimant', // average earnings
  'ca-unemployment': 'ca-employment',
  'ca-core-cpi': 'ca-cpi',
  'ca-core-retail': 'ca-secondary-0',
  'au-unemployment': 'au-employment',
  'au-core-cpi': 'au-cpi',
  'ch-core-cpi': 'ch-cpi',
  'cn-ppi': 'cn-cpi',
  ...Object.fromEntries(
    ['us', 'emu', 'de', 'fr', 'uk', 'jp', 'au'].flatMap((c) => [
      [`${c}-flash-mfg`, 'emu-pmi'],
      [`${c}-flash-svc`, 'emu-pmi'],
    ]),
  ),
  'de-pmi': 'emu-pmi',
};

/** The key whose release day `ind` keeps: its own, or the release it is printed in. */
const releaseKey = (ind: Indicator): string => SAME_RELEASE[ind.key] ?? ind.key;

/** The zone whose clock a release keeps: the CFTC's reports keep Washington's for every currency. */
function zoneOf(ind: Indicator): string {
  return ind.name.startsWith('CFTC ') ? 'America/New_York' : (ZONES[ind.country] ?? 'UTC');
}

/** A local calendar day, as midnight UTC of its date. */
const ymd = (day: number): [number, number, number] => {
  const d = new Date(day);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
};
const weekdayOfDay = (day: number) => new Date(day).getUTCDay();
const isWeekendDay = (day: number) => weekdayOfDay(day) === 0 || weekdayOfDay(day) === 6;
const isUsOff = (day: number) => isWeekendDay(day) || isUsHoliday(...ymd(day));

/**
 * The FOMC's blackout: no Fed speaker from the second Saturday before a meeting's first day
 * through the day after the meeting (federalreserve.gov, "FOMC Policy on External
 * Communications of Committee Participants").
 */
function inFomcBlackout(day: number): boolean {
  const [y] = ymd(day);
  for (const meeting of decisionDays('FOMC', y - 1, y + 1)) {
    const decision = Date.UTC(meeting.y, meeting.m - 1, meeting.d);
    const firstDay = decision - DAY;
    const back = (weekdayOfDay(firstDay) + 1) % 7 || 7; // days back to the Saturday before
    const start = firstDay - back * DAY - 7 * DAY;
    if (day >= start && day <= decision + DAY) return true;
  }
  return false;
}

/** Weekly and monthly US prints that move earlier, not later, off a holiday (claims, jobs). */
const EARLIER_OFF_HOLIDAY = new Set(['us-claims', 'us-weekly-0', 'us-nfp', 'us-unemployment']);

/**
 * The day a release on New York's clock really comes, given the agencies' holiday rules
 * (docs/demo-calendar.md); null when it does not come at all.
 */
function usAgencyDay(ind: Indicator, day: number): number | null {
  if (ind.frequency === 'adhoc') {
    if (isUsOff(day)) return null;
    return ind.key.startsWith('us-speaker') && inFomcBlackout(day) ? null : day;
  }
  if (ind.name.startsWith('CFTC ')) {
    // Friday 15:30 ET; a federal holiday from Tuesday to Friday of the week puts the report
    // on the next business day after it (the Monday after, for Thanksgiving or Christmas)
    const monday = day - (weekdayOfDay(day) - 1) * DAY;
    const holidayInWeek = [1, 2, 3, 4].some((k) => isUsHoliday(...ymd(monday + k * DAY)));
    if (!holidayInWeek) return day;
    let next = day + DAY;
    while (isUsOff(next)) next += DAY;
    return next;
  }
  if (!isUsHoliday(...ymd(day))) return day;
  const step = EARLIER_OFF_HOLIDAY.has(releaseKey(ind)) ? -DAY : DAY;
  let moved = day + step;
  while (isUsOff(moved)) moved += step;
  return moved;
}

/**
 * The day a release on another country's clock comes, given that country's holidays
 * (market-holidays.ts): a speech on one is dropped, a figure comes the next working day
 * (a weekend day China works to make up for a holiday is one). A central bank's decision
 * keeps the day the bank published.
 */
function localAgencyDay(ind: Indicator, day: number): number | null {
  if (BANK_OF[ind.key] || !isMarketHoliday(ind.country, day)) return day;
  if (ind.frequency === 'adhoc') return null;
  const off = (t: number) =>
    (isWeekendDay(t) && !isMakeUpWorkday(ind.country, t)) || isMarketHoliday(ind.country, t);
  let moved = day + DAY;
  while (off(moved)) moved += DAY;
  return moved;
}

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
  const zone = zoneOf(ind);
  const holiday = ind.category === 'holidays';
  const minutes = localMinutes(ind, zone);
  const at = (day: number) => (holiday ? day : zonedTime(...ymd(day), minutes, zone));
  const start = new Date(from - 2 * DAY);
  const end = to + 2 * DAY;
  const days: number[] = [];
  const bank = BANK_OF[ind.key];
  if (ind.frequency === 'weekly' || ind.frequency === 'adhoc') {
    for (
      let t = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
      t < end;
      t += DAY
    ) {
      const wd = weekdayOfDay(t);
      const hit =
        ind.frequency === 'weekly'
          ? wd === (ind.weekday ?? MON) % 7
          : wd !== 0 && wd !== 6 && pick(t) < 0.3; // a speaker on about one weekday in three
      if (hit) days.push(t);
    }
  } else if (bank) {
    const years = [start.getUTCFullYear(), new Date(end).getUTCFullYear()] as const;
    for (const d of decisionDays(bank, ...years)) days.push(Date.UTC(d.y, d.m - 1, d.d));
  } else {
    const key = releaseKey(ind);
    const rule = RULES[key] ?? defaultRule({ ...ind, key });
    for (
      let y = start.getUTCFullYear(), m = start.getUTCMonth() + 1;
      Date.UTC(y, m - 1, 1) < end;
      m === 12 ? ((m = 1), y++) : m++
    ) {
      const d = rule(y, m);
      // a day before the 1st (ADP, JOLTS in the week of an early jobs report) is last month's
      if (d !== null) days.push(Date.UTC(y, m - 1, d));
    }
  }
  const usClock = zone === 'America/New_York' && !holiday;
  const out = new Set<number>();
  for (const day of days) {
    const real = usClock ? usAgencyDay(ind, day) : holiday ? day : localAgencyDay(ind, day);
    if (real !== null) out.add(at(real));
  }
  return [...out].sort((a, b) => a - b).filter((t) => t >= from && t < to);
}

/** Whether a central bank's decision at `t` is on a date the bank has not published yet. */
export function isTentativeRelease(ind: Indicator, t: number): boolean {
  const bank = BANK_OF[ind.key];
  if (!bank) return false;
  const day = localDate(t, ind.country);
  const [y, m, d] = ymd(day.getTime());
  return decisionDays(bank, y, y).some((x) => x.m === m && x.d === d && x.tentative);
}

function defaultRule(ind: Indicator): DayRule {
  const day = keyDay(ind.key);
  const open = businessIn(ind.country);
  if (ind.frequency === 'quarterly')
    return inMonths([1, 4, 7, 10], (y, m) => nearBusiness(y, m, day, open));
  if (ind.frequency === 'meeting')
    return inMonths([2, 5, 8, 11], (y, m) => nearBusiness(y, m, day, open));
  return (y, m) => nearBusiness(y, m, day, open);
}
