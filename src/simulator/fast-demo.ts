/**
 * A fast demo (speed above 1) keeps the real clock and brings the week's upcoming releases
 * closer instead: a release due at t comes at now + (t − now) / speed. The calendar shows
 * those times, so the app's clock, the calendar, receipts and countdowns agree (a faster
 * virtual clock printed Monday's releases on a real Saturday, and receipts read "−45 h").
 * All-day rows (a holiday) keep their day: a holiday at 04:13 would be no holiday.
 */
import type { SimEventDate } from './data/calendar.js';

export function compressUpcoming(
  eventDates: SimEventDate[],
  now: number,
  speed: number,
): SimEventDate[] {
  if (!(speed > 1)) return eventDates;
  return eventDates.map((ed) => {
    const t = Date.parse(ed.dateUtc);
    if (t <= now || ed.isAllDay) return ed;
    // whole seconds, as the service writes its times; never before now
    const at = Math.max(Math.ceil(now / 1000), Math.round((now + (t - now) / speed) / 1000));
    return { ...ed, dateUtc: new Date(at * 1000).toISOString().replace('.000Z', 'Z') };
  });
}
