/**
 * The holidays outside the US on which an economy's agencies publish nothing and its
 * central bankers give no speech: Christmas and Boxing Day, New Year, Good Friday and
 * Easter Monday where they are public holidays, Japan's New Year and Golden Week, China's
 * Spring Festival week. A fixed-date holiday on a weekend is observed on the next free
 * weekday where the country does so (UK, Canada, Australia, New Zealand). The US rules are
 * in us-holidays.ts; docs/demo-calendar.md lists both.
 */

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

/**
 * China's Spring Festival holiday as the State Council announced it (first and last day off);
 * a year not yet announced is not listed (the demo then moves nothing that week).
 */
const SPRING_FESTIVAL: Record<number, [string, string]> = {
  2024: ['2024-02-10', '2024-02-17'],
  2025: ['2025-01-28', '2025-02-04'],
  2026: ['2026-02-15', '2026-02-23'],
};

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

function holidaysOf(country: string, y: number): number[] {
  if (country === 'US') return [];
  const days: number[] = [];
  if (country === 'JP') {
    // New Year (1–3 January) and Golden Week (29 April, 3–5 May; a Sunday one moves on)
    days.push(utc(y, 1, 1), utc(y, 1, 2), utc(y, 1, 3));
    const golden = [utc(y, 4, 29), utc(y, 5, 3), utc(y, 5, 4), utc(y, 5, 5)];
    days.push(...golden);
    for (const t of golden)
      if (new Date(t).getUTCDay() === 0) {
        let sub = t + DAY;
        while (golden.includes(sub)) sub += DAY;
        days.push(sub);
      }
    return days;
  }
  if (country === 'CN') {
    days.push(utc(y, 1, 1));
    const spring = SPRING_FESTIVAL[y];
    if (spring)
      for (let t = Date.parse(spring[0]); t <= Date.parse(spring[1]); t += DAY) days.push(t);
    return days;
  }
  const fixed = [utc(y, 1, 1), utc(y, 12, 25), utc(y, 12, 26)];
  if (country === 'NZ' || country === 'CH') fixed.push(utc(y, 1, 2));
  days.push(...observedFixed(country, fixed));
  const easter = easterSunday(y);
  if (GOOD_FRIDAY.has(country)) days.push(easter - 2 * DAY);
  if (EASTER_MONDAY.has(country)) days.push(easter + DAY);
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
