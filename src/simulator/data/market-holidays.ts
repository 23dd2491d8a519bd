/**
 * The holidays outside the US on which an economy's agencies publish nothing and its
 * central bankers give no speech: Christmas and Boxing Day, New Year, Good Friday and
 * Easter Monday where they are public holidays, the UK's May and August bank holidays,
 * Japan's national holidays (with their substitute and in-between days) and New Year,
 * China's holidays as the State Council announces them (china-holidays.ts, with the weekend
 * days China works to make up for them). A fixed-date holiday on a weekend is
 * observed on the next free weekday where the country does so (UK, Canada, Australia, New
 * Zealand). The US rules are in us-holidays.ts; docs/demo-calendar.md lists both.
 */

import { chinaHolidays, isChinaMakeUpDay } from './china-holidays.js';

const DAY = 86_400_000;

const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

/** Easter Sunday of year `y` (the Gregorian computus, Meeus/Jones/Butcher). */
export function easterSunday(y: number): number {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return utc(y, month, day);
}

/** Countries that observe a weekend Christmas, Boxing Day or New Year on a weekday. */
const SUBSTITUTES = new Set(['UK', 'CA', 'AU', 'NZ']);

/** Christian holidays: countries closed on Good Friday, on Easter Monday. */
const GOOD_FRIDAY = new Set(['EMU', 'DE', 'UK', 'CH', 'CA', 'AU', 'NZ']);
const EASTER_MONDAY = new Set(['EMU', 'DE', 'FR', 'UK', 'CH', 'AU', 'NZ']);

const isWeekend = (t: number) => [0, 6].includes(new Date(t).getUTCDay());

/** Fixed dates on the day they are observed: a weekend one moves to the next free weekday. */
function observedFixed(country: string, dates: number[]): number[] {
  if (!SUBSTITUTES.has(country)) return dates;
  const out: number[] = [];
  for (const t of [...dates].sort((a, b) => a - b)) {
    let day = t;
    while (isWeekend(day) || out.includes(day)) day += DAY;
    out.push(day);
  }
  return out;
}

/** The nth (1-based; -1 = last) given weekday (0 = Sunday, 1 = Monday) of a month. */
function nthWeekday(y: number, m: number, wd: number, n: number): number {
  if (n < 0) {
    let t = utc(y, m + 1, 0);
    while (new Date(t).getUTCDay() !== wd) t -= DAY;
    return t;
  }
  let t = utc(y, m, 1);
  while (new Date(t).getUTCDay() !== wd) t += DAY;
  return t + (n - 1) * 7 * DAY;
}

/**
 * The equinox days of Japan's calendar (the National Astronomical Observatory's formula,
 * good for 1980–2099): the day of March, the day of September.
 */
function equinoxes(y: number): [number, number] {
  const drift = 0.242194 * (y - 1980) - Math.floor((y - 1980) / 4);
  return [utc(y, 3, Math.floor(20.8431 + drift)), utc(y, 9, Math.floor(23.2488 + drift))];
}

/**
 * Japan's national holidays (the Act on National Holidays): a Sunday one is made up on the
 * next day that is no holiday, and a day between two holidays is one too (September 2026's
 * "Silver Week"). Markets and agencies also close on 2 and 3 January.
 */
function japaneseHolidays(y: number): number[] {
  const MON = 1;
  const [vernal, autumnal] = equinoxes(y);
  const national = new Set([
    utc(y, 1, 1),
    nthWeekday(y, 1, MON, 2), // Coming of Age Day
    utc(y, 2, 11), // National Foundation Day
    utc(y, 2, 23), // the Emperor's Birthday
    vernal,
    utc(y, 4, 29), // Showa Day
    utc(y, 5, 3), // Golden Week: Constitution, Greenery and Children's Days
    utc(y, 5, 4),
    utc(y, 5, 5),
    nthWeekday(y, 7, MON, 3), // Marine Day
    utc(y, 8, 11), // Mountain Day
    nthWeekday(y, 9, MON, 3), // Respect for the Aged Day
    autumnal,
    nthWeekday(y, 10, MON, 2), // Sports Day
    utc(y, 11, 3), // Culture Day
    utc(y, 11, 23), // Labour Thanksgiving Day
  ]);
  const days = new Set(national);
  for (const t of national) {
    if (national.has(t + DAY) || !national.has(t + 2 * DAY)) continue;
    if (new Date(t + DAY).getUTCDay() !== 0) days.add(t + DAY); // between two holidays
  }
  for (const t of [...days].sort((a, b) => a - b))
    if (new Date(t).getUTCDay() === 0) {
      let sub = t + DAY;
      while (days.has(sub)) sub += DAY;
      days.add(sub);
    }
  return [...days, utc(y, 1, 2), utc(y, 1, 3)];
}

function holidaysOf(country: string, y: number): number[] {
  if (country === 'US') return [];
  const days: number[] = [];
  if (country === 'JP') return japaneseHolidays(y);
  if (country === 'CN') return chinaHolidays(y);
  const fixed = [utc(y, 1, 1), utc(y, 12, 25), utc(y, 12, 26)];
  if (country === 'NZ' || country === 'CH') fixed.push(utc(y, 1, 2));
  days.push(...observedFixed(country, fixed));
  const easter = easterSunday(y);
  if (GOOD_FRIDAY.has(country)) days.push(easter - 2 * DAY);
  if (EASTER_MONDAY.has(country)) days.push(easter + DAY);
  // the UK's bank holidays: Early May and Spring (first and last Monday of May), Summer
  if (country === 'UK')
    days.push(nthWeekday(y, 5, 1, 1), nthWeekday(y, 5, 1, -1), nthWeekday(y, 8, 1, -1));
  return days;
}

const cache = new Map<string, Set<number>>();

/** Whether local day `day` (midnight UTC of its date) is a holiday of `country` (not the US). */
export function isMarketHoliday(country: string, day: number): boolean {
  const y = new Date(day).getUTCFullYear();
  const key = `${country}|${y}`;
  let set = cache.get(key);
  if (!set) cache.set(key, (set = new Set(holidaysOf(country, y))));
  return set.has(day);
}

/** Whether weekend day `day` (midnight UTC of its date) is a working day in `country` (China's 调休). */
export function isMakeUpWorkday(country: string, day: number): boolean {
  return country === 'CN' && isChinaMakeUpDay(day);
}
