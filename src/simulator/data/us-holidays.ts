/**
 * US federal holidays (5 U.S.C. 6103, as the Office of Personnel Management lists them):
 * federal agencies publish nothing, Treasury holds no auction and the Fed's officials give
 * no speech on them. A holiday on a Saturday is observed the Friday before, on a Sunday the
 * Monday after.
 */

const dayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));

/** The nth (1-based; -1 = last) given weekday (0 = Sunday) of a month. */
function nth(y: number, m: number, wd: number, n: number): number {
  if (n < 0) {
    let d = new Date(Date.UTC(y, m, 0)).getUTCDate();
    while (dayOf(y, m, d).getUTCDay() !== wd) d--;
    return d;
  }
  let d = 1;
  while (dayOf(y, m, d).getUTCDay() !== wd) d++;
  return d + (n - 1) * 7;
}

const iso = (t: Date) => t.toISOString().slice(0, 10);

/** A fixed-date holiday on the day it is observed. */
function observed(y: number, m: number, d: number): string {
  const t = dayOf(y, m, d);
  const wd = t.getUTCDay();
  return iso(dayOf(y, m, d + (wd === 6 ? -1 : wd === 0 ? 1 : 0)));
}

/** The observed federal holidays of year `y` (ISO dates, with their names). */
function usFederalHolidays(y: number): Map<string, string> {
  return new Map([
    [observed(y, 1, 1), "New Year's Day"],
    [iso(dayOf(y, 1, nth(y, 1, 1, 3))), 'Birthday of Martin Luther King, Jr.'],
    [iso(dayOf(y, 2, nth(y, 2, 1, 3))), "Washington's Birthday"],
    [iso(dayOf(y, 5, nth(y, 5, 1, -1))), 'Memorial Day'],
    [observed(y, 6, 19), 'Juneteenth National Independence Day'],
    [observed(y, 7, 4), 'Independence Day'],
    [iso(dayOf(y, 9, nth(y, 9, 1, 1))), 'Labor Day'],
    [iso(dayOf(y, 10, nth(y, 10, 1, 2))), 'Columbus Day'],
    [observed(y, 11, 11), 'Veterans Day'],
    [iso(dayOf(y, 11, nth(y, 11, 4, 4))), 'Thanksgiving Day'],
    [observed(y, 12, 25), 'Christmas Day'],
  ]);
}

const byYear = new Map<number, Set<string>>();

/** Whether the New York calendar day y-m-d is an observed federal holiday. */
export function isUsHoliday(y: number, m: number, d: number): boolean {
  const date = iso(dayOf(y, m, d));
  const year = Number(date.slice(0, 4));
  // New Year's Day on a Saturday is observed on 31 December of the year before
  for (const yr of [year, year + 1]) {
    let set = byYear.get(yr);
    if (!set) {
      set = new Set(usFederalHolidays(yr).keys());
      byYear.set(yr, set);
    }
    if (set.has(date)) return true;
  }
  return false;
}
