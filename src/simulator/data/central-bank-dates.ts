/**
 * The days the eight central banks the demo follows announce their policy rate, as each
 * bank published them (local dates; the announcement day of a two-day meeting). The list
 * and its sources are in docs/demo-calendar.md; extend both when a bank publishes a year.
 * A year a bank has not published yet gets the same weekdays of the same months as its
 * nearest published year, marked tentative (as a real calendar shows an unconfirmed date).
 */

type Bank = 'FOMC' | 'ECB' | 'BoE' | 'BoJ' | 'BoC' | 'RBA' | 'RBNZ' | 'SNB';

// prettier-ignore
const DECISION_DATES: Record<Bank, string[]> = {
  // federalreserve.gov FOMC calendars; 2025–2026 published 9 Aug 2024, 2027 published
  // 5 Sep 2025 ("tentative meeting schedule"); the statement at 2 p.m. ET on the second day
  FOMC: [
    '2024-01-31', '2024-03-20', '2024-05-01', '2024-06-12', '2024-07-31', '2024-09-18', '2024-11-07', '2024-12-18',
    '2025-01-29', '2025-03-19', '2025-05-07', '2025-06-18', '2025-07-30', '2025-09-17', '2025-10-29', '2025-12-10',
    '2026-01-28', '2026-03-18', '2026-04-29', '2026-06-17', '2026-07-29', '2026-09-16', '2026-10-28', '2026-12-09',
    '2027-01-27', '2027-03-17', '2027-04-28', '2027-06-09', '2027-07-28', '2027-09-15', '2027-10-27', '2027-12-08',
    '2028-01-26',
  ],
  // ecb.europa.eu "Meeting calendars" of the Governing Council (monetary policy meetings)
  ECB: [
    '2024-01-25', '2024-03-07', '2024-04-11', '2024-06-06', '2024-07-18', '2024-09-12', '2024-10-17', '2024-12-12',
    '2025-01-30', '2025-03-06', '2025-04-17', '2025-06-05', '2025-07-24', '2025-09-11', '2025-10-30', '2025-12-18',
    '2026-02-05', '2026-03-19', '2026-04-30', '2026-06-11', '2026-07-23', '2026-09-10', '2026-10-29', '2026-12-17',
  ],
  // bankofengland.co.uk "Monetary Policy Committee dates" (MPC announcement, 12:00 UK time)
  BoE: [
    '2024-02-01', '2024-03-21', '2024-05-09', '2024-06-20', '2024-08-01', '2024-09-19', '2024-11-07', '2024-12-19',
    '2025-02-06', '2025-03-20', '2025-05-08', '2025-06-19', '2025-08-07', '2025-09-18', '2025-11-06', '2025-12-18',
    '2026-02-05', '2026-03-19', '2026-04-30', '2026-06-18', '2026-07-30', '2026-09-17', '2026-11-05', '2026-12-17',
  ],
  // boj.or.jp "Scheduled Dates of Monetary Policy Meetings" (the second day of each meeting)
  BoJ: [
    '2024-01-23', '2024-03-19', '2024-04-26', '2024-06-14', '2024-07-31', '2024-09-20', '2024-10-31', '2024-12-19',
    '2025-01-24', '2025-03-19', '2025-05-01', '2025-06-17', '2025-07-31', '2025-09-19', '2025-10-30', '2025-12-19',
    '2026-01-23', '2026-03-19', '2026-04-28', '2026-06-16', '2026-07-31', '2026-09-18', '2026-10-30', '2026-12-18',
  ],
  // bankofcanada.ca "Schedule for policy interest rate announcements" (09:45 ET)
  BoC: [
    '2024-01-24', '2024-03-06', '2024-04-10', '2024-06-05', '2024-07-24', '2024-09-04', '2024-10-23', '2024-12-11',
    '2025-01-29', '2025-03-12', '2025-04-16', '2025-06-04', '2025-07-30', '2025-09-17', '2025-10-29', '2025-12-10',
    '2026-01-28', '2026-03-18', '2026-04-29', '2026-06-10', '2026-07-15', '2026-09-02', '2026-10-28', '2026-12-09',
  ],
  // rba.gov.au "Monetary Policy Board meeting dates" (14:30 Sydney time on the second day)
  RBA: [
    '2024-02-06', '2024-03-19', '2024-05-07', '2024-06-18', '2024-08-06', '2024-09-24', '2024-11-05', '2024-12-10',
    '2025-02-18', '2025-04-01', '2025-05-20', '2025-07-08', '2025-08-12', '2025-09-30', '2025-11-04', '2025-12-09',
    '2026-02-03', '2026-03-17', '2026-05-05', '2026-06-16', '2026-08-11', '2026-09-29', '2026-11-03', '2026-12-08',
  ],
  // rbnz.govt.nz Monetary Policy Statement / Review dates (14:00 Wellington time); the
  // Aug 2026–Feb 2027 dates as revised in 2025 (decisions on 2 Sep and 9 Dec 2026)
  RBNZ: [
    '2024-02-28', '2024-04-10', '2024-05-22', '2024-07-10', '2024-08-14', '2024-10-09', '2024-11-27',
    '2025-02-19', '2025-04-09', '2025-05-28', '2025-07-09', '2025-08-20', '2025-10-08', '2025-11-26',
    '2026-02-18', '2026-04-08', '2026-05-27', '2026-07-08', '2026-09-02', '2026-10-28', '2026-12-09',
    '2027-02-17',
  ],
  // snb.ch "Monetary policy assessment" dates (09:30 Zurich time, quarterly)
  SNB: [
    '2024-03-21', '2024-06-20', '2024-09-26', '2024-12-12',
    '2025-03-20', '2025-06-19', '2025-09-25', '2025-12-11',
    '2026-03-19', '2026-06-18', '2026-09-24', '2026-12-10',
  ],
};

/** The bank whose decision day each indicator keeps (a press conference follows its decision). */
export const BANK_OF: Record<string, Bank> = {
  'us-fed': 'FOMC',
  'us-powell': 'FOMC',
  'emu-ecb': 'ECB',
  'emu-lagarde': 'ECB',
  'uk-boe': 'BoE',
  'jp-boj': 'BoJ',
  'ca-boc': 'BoC',
  'au-rba': 'RBA',
  'nz-rbnz': 'RBNZ',
  'ch-snb': 'SNB',
};

interface DecisionDay {
  y: number;
  m: number;
  d: number;
  /** Not yet published by the bank: placed on the pattern of its nearest published year. */
  tentative: boolean;
}

const parse = (iso: string): DecisionDay => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return { y, m, d, tentative: false };
};

const weekdayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** The same weekday, the same week of the month (or the last one), in another year. */
function sameSlot(day: DecisionDay, year: number): DecisionDay {
  const wd = weekdayOf(day.y, day.m, day.d);
  const nth = Math.ceil(day.d / 7);
  let d = 1;
  while (weekdayOf(year, day.m, d) !== wd) d++;
  d += (nth - 1) * 7;
  const inMonth = new Date(Date.UTC(year, day.m, 0)).getUTCDate();
  if (d > inMonth) d -= 7;
  return { y: year, m: day.m, d, tentative: true };
}

const computed = new Map<string, readonly DecisionDay[]>();

/**
 * Every decision day of `bank` in the years [fromYear, toYear], oldest first. Kept once
 * computed: the schedule asks for the same few years for every speech day of the demo.
 */
export function decisionDays(bank: Bank, fromYear: number, toYear: number): readonly DecisionDay[] {
  const key = `${bank}|${fromYear}|${toYear}`;
  let days = computed.get(key);
  if (!days) computed.set(key, (days = Object.freeze(computeDecisionDays(bank, fromYear, toYear))));
  return days;
}

function computeDecisionDays(bank: Bank, fromYear: number, toYear: number): DecisionDay[] {
  const published = DECISION_DATES[bank].map(parse);
  const years = [...new Set(published.map((p) => p.y))];
  const first = Math.min(...years);
  const last = Math.max(...years);
  // a year with only a trailing date (the FOMC's next January) counts as published for that date
  const fullYears = years.filter((y) => published.filter((p) => p.y === y).length > 1);
  const out: DecisionDay[] = [];
  for (let y = fromYear; y <= toYear; y++) {
    if (y >= first && y <= last) out.push(...published.filter((p) => p.y === y));
    if (fullYears.includes(y)) continue;
    const pattern = y < first ? Math.min(...fullYears) : Math.max(...fullYears);
    const known = new Set(out.filter((p) => p.y === y).map((p) => p.m));
    for (const p of published.filter((q) => q.y === pattern)) {
      if (!known.has(p.m)) out.push(sameSlot(p, y));
    }
  }
  return out.sort((a, b) => Date.UTC(a.y, a.m - 1, a.d) - Date.UTC(b.y, b.m - 1, b.d));
}
