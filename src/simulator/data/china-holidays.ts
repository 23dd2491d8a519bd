/**
 * China's public holidays and make-up working days (调休), as the State Council's annual
 * notice on the holiday arrangements sets them: first and last day off of each holiday, and
 * the weekend days worked to bridge them. docs/demo-calendar.md lists them.
 */

type Span = [first: string, last: string];

interface ChinaYear {
  newYear: Span;
  springFestival: Span;
  qingming: Span;
  labourDay: Span;
  dragonBoat: Span;
  /** Joined to National Day when they meet (2025). */
  midAutumn?: Span;
  nationalDay: Span;
  /** The Saturdays and Sundays worked in exchange for bridging days. */
  makeUpDays: string[];
}

// prettier-ignore
const NOTICES: Record<number, ChinaYear> = {
  2024: {
    newYear: ['2024-01-01', '2024-01-01'],
    springFestival: ['2024-02-10', '2024-02-17'],
    qingming: ['2024-04-04', '2024-04-06'],
    labourDay: ['2024-05-01', '2024-05-05'],
    dragonBoat: ['2024-06-08', '2024-06-10'],
    midAutumn: ['2024-09-15', '2024-09-17'],
    nationalDay: ['2024-10-01', '2024-10-07'],
    makeUpDays: ['2024-02-04', '2024-02-18', '2024-04-07', '2024-04-28', '2024-05-11', '2024-09-14', '2024-09-29', '2024-10-12'],
  },
  2025: {
    newYear: ['2025-01-01', '2025-01-01'],
    springFestival: ['2025-01-28', '2025-02-04'],
    qingming: ['2025-04-04', '2025-04-06'],
    labourDay: ['2025-05-01', '2025-05-05'],
    dragonBoat: ['2025-05-31', '2025-06-02'],
    nationalDay: ['2025-10-01', '2025-10-08'], // with Mid-Autumn (6 October)
    makeUpDays: ['2025-01-26', '2025-02-08', '2025-04-27', '2025-09-28', '2025-10-11'],
  },
  2026: {
    newYear: ['2026-01-01', '2026-01-03'],
    springFestival: ['2026-02-15', '2026-02-23'],
    qingming: ['2026-04-04', '2026-04-06'],
    labourDay: ['2026-05-01', '2026-05-05'],
    dragonBoat: ['2026-06-19', '2026-06-21'],
    midAutumn: ['2026-09-25', '2026-09-27'],
    nationalDay: ['2026-10-01', '2026-10-07'],
    makeUpDays: ['2026-01-04', '2026-02-14', '2026-02-28', '2026-05-09', '2026-09-20', '2026-10-10'],
  },
  // Expected; replace with the State Council's notice. Not announced when written, so derived
  // with the rule the recent notices follow: Spring Festival's four statutory days (the eve,
  // Friday 5 February, to the third day of the Lunar New Year of Saturday 6 February) made
  // into a nine-day break; Qingming on its solar term (Monday 5 April) with the weekend before;
  // Labour Day 1–5 May; Dragon Boat (Wednesday 9 June) and Mid-Autumn (Wednesday
  // 15 September) on the day alone, a midweek day the notices bridge to no weekend; National
  // Day 1–7 October. The make-up days depend on the notice's choice of bridges: none listed.
  2027: {
    newYear: ['2027-01-01', '2027-01-01'],
    springFestival: ['2027-02-05', '2027-02-13'],
    qingming: ['2027-04-03', '2027-04-05'],
    labourDay: ['2027-05-01', '2027-05-05'],
    dragonBoat: ['2027-06-09', '2027-06-09'],
    midAutumn: ['2027-09-15', '2027-09-15'],
    nationalDay: ['2027-10-01', '2027-10-07'],
    makeUpDays: [],
  },
};

const DAY = 86_400_000;

/** The days of a holiday, first to last, as midnight UTC of their dates. */
function span([first, last]: Span): number[] {
  const days: number[] = [];
  for (let t = Date.parse(first); t <= Date.parse(last); t += DAY) days.push(t);
  return days;
}

/** The holidays fixed by date: all a year with no notice (after 2027) keeps. */
const fixedByDate = (y: number): Span[] => [
  [`${y}-01-01`, `${y}-01-01`],
  [`${y}-05-01`, `${y}-05-05`],
  [`${y}-10-01`, `${y}-10-07`],
];

/** China's days off in year `y`, as midnight UTC of their dates. */
export function chinaHolidays(y: number): number[] {
  const notice = NOTICES[y];
  if (!notice) return fixedByDate(y).flatMap(span);
  const { newYear, springFestival, qingming, labourDay, dragonBoat, midAutumn, nationalDay } =
    notice;
  const spans = [newYear, springFestival, qingming, labourDay, dragonBoat, nationalDay];
  return [...spans, ...(midAutumn ? [midAutumn] : [])].flatMap(span);
}

const MAKE_UP_DAYS = new Set(
  Object.values(NOTICES).flatMap((n) => n.makeUpDays.map((d) => Date.parse(d))),
);

/** Whether `day` (midnight UTC of its date) is a weekend day China works (a make-up day). */
export function isChinaMakeUpDay(day: number): boolean {
  return MAKE_UP_DAYS.has(day);
}
