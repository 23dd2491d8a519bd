/**
 * The reference period a release reports on, as the service's `periodDateUtc` (the period's
 * first day, midnight UTC) and `periodType`: Nonfarm Payrolls on 6 November is October's,
 * jobless claims and EIA crude stocks the week before the release, GDP the last quarter, a
 * bill auction or a rate decision its own day. Dates are the country's local dates, so a
 * Tokyo release at 23:30 UTC belongs to the next day.
 */
import type { Indicator } from './indicators.js';
import { localDate } from './schedule.js';

const DAY = 86_400_000;

export interface Period {
  periodDateUtc: string;
  periodType: 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER';
}

/** Flash estimates and surveys of the month (or week, or quarter) they are released in. */
const SAME_PERIOD = new Set([
  'de-zew',
  'de-ifo',
  'de-cpi',
  'de-pmi',
  'emu-pmi',
  'cn-pmi',
  'ch-kof',
  'us-rigs',
]);
/** Values of one day: auctions (GDT is a dairy auction), decisions, speeches, holidays. */
const ONE_DAY = new Set(['nz-gdt']);

export function periodTypeOf(ind: Indicator): Period['periodType'] {
  if (ind.category === 'bondAuctions' || ONE_DAY.has(ind.key)) return 'DAY';
  switch (ind.frequency) {
    case 'weekly':
      return 'WEEK';
    case 'monthly':
      return 'MONTH';
    case 'quarterly':
      return 'QUARTER';
    default:
      return 'DAY';
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The period a release of `ind` at `releaseMs` reports on. */
export function periodOf(ind: Indicator, releaseMs: number): Period {
  const type = periodTypeOf(ind);
  const day = localDate(releaseMs, ind.country);
  const y = day.getUTCFullYear();
  const m = day.getUTCMonth();
  const back = SAME_PERIOD.has(ind.key) ? 0 : 1;
  if (type === 'DAY') return { periodDateUtc: iso(day.getTime()), periodType: type };
  if (type === 'WEEK') {
    // weeks start on Monday; the week before the release's own week, unless a same-week count
    const monday = day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY;
    return { periodDateUtc: iso(monday - back * 7 * DAY), periodType: type };
  }
  if (type === 'QUARTER') {
    // the Tankan is the survey of the month before it is published (December's in December)
    const survey = ind.key === 'jp-tankan' ? localDate(releaseMs - 15 * DAY, ind.country) : null;
    const q = survey ? Math.floor(survey.getUTCMonth() / 3) : Math.floor(m / 3) - back;
    const year = survey ? survey.getUTCFullYear() : y;
    return { periodDateUtc: iso(Date.UTC(year, q * 3, 1)), periodType: type };
  }
  return { periodDateUtc: iso(Date.UTC(y, m - back, 1)), periodType: type };
}
