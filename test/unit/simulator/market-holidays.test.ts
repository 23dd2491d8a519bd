/**
 * Issue #45, item 4: holidays outside the US move or drop releases and speeches as the
 * agencies do. The holiday dates are written out here by hand (the calendars of the ECB's
 * TARGET2, the UK's bank holidays, Japan's national holidays, China's State Council notice),
 * not computed as the simulator computes them.
 */
import { describe, expect, it } from 'vitest';
import { INDICATORS, type Indicator } from '../../../src/simulator/data/indicators.js';
import { easterSunday } from '../../../src/simulator/data/market-holidays.js';
import { releaseTimes } from '../../../src/simulator/data/schedule.js';

const ZONE: Record<string, string> = {
  EMU: 'Europe/Berlin',
  DE: 'Europe/Berlin',
  UK: 'Europe/London',
  JP: 'Asia/Tokyo',
  CN: 'Asia/Shanghai',
  CH: 'Europe/Zurich',
};

// prettier-ignore
const HOLIDAYS: Record<string, string[]> = {
  EMU: ['2026-04-03', '2026-04-06', '2026-12-25', '2026-12-26', '2027-01-01'],
  DE: ['2026-04-03', '2026-04-06', '2026-12-25', '2026-12-26', '2027-01-01'],
  // 2027: Christmas on a Saturday, Boxing Day on a Sunday, observed 27 and 28 December
  UK: ['2026-04-03', '2026-04-06', '2026-12-25', '2026-12-28', '2027-01-01', '2027-12-27', '2027-12-28'],
  CH: ['2026-04-03', '2026-04-06', '2026-12-25', '2026-12-26', '2027-01-01', '2027-01-02'],
  // New Year 1–3 January; Golden Week 2026: 29 April, 3–5 May and 6 May for the Sunday
  JP: ['2026-04-29', '2026-05-04', '2026-05-05', '2026-05-06', '2027-01-01'],
  // Spring Festival 2026: 15–23 February
  CN: ['2026-02-16', '2026-02-17', '2026-02-18', '2026-02-19', '2026-02-20', '2026-02-23'],
};

const localDate = (t: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(t);

/**
 * Every release of a country's indicators in 2026–2027, speakers on every weekday; not the
 * CFTC's reports, which keep Washington's calendar for every currency.
 */
const releasesOf = (country: string) =>
  INDICATORS.filter(
    (i) => i.country === country && i.category !== 'interestRates' && !i.name.startsWith('CFTC '),
  ).flatMap((i: Indicator) =>
    releaseTimes(i, Date.UTC(2026, 0, 1), Date.UTC(2028, 0, 1), () => 0).map((t) => ({
      what: i.name,
      date: localDate(t, ZONE[country]!),
    })),
  );

describe('holidays outside the US', () => {
  it('Easter Sunday, by the computus', () => {
    const dates = [2024, 2025, 2026, 2027].map((y) => new Date(easterSunday(y)).toISOString());
    expect(dates.map((d) => d.slice(0, 10))).toEqual([
      '2024-03-31',
      '2025-04-20',
      '2026-04-05',
      '2027-03-28',
    ]);
  });

  for (const [country, days] of Object.entries(HOLIDAYS))
    it(`${country}: no release or speech on ${days.join(', ')}`, () => {
      const releases = releasesOf(country);
      expect(releases.length).toBeGreaterThan(100);
      const onHoliday = releases.filter((r) => days.includes(r.date));
      expect(onHoliday, JSON.stringify(onHoliday)).toEqual([]);
    });

  it('a weekly figure moves to the next business day (SNB sight deposits after Easter Monday)', () => {
    const sight = INDICATORS.find((i) => i.name === 'SNB Total Sight Deposits') as Indicator;
    const april = releaseTimes(sight, Date.UTC(2026, 3, 1), Date.UTC(2026, 4, 1)).map((t) =>
      localDate(t, 'Europe/Zurich'),
    );
    expect(april).toEqual(['2026-04-07', '2026-04-13', '2026-04-20', '2026-04-27']);
  });

  it('a speech on a holiday is dropped, not moved (the ECB speakers over Christmas 2026)', () => {
    const schnabel = INDICATORS.find((i) => i.name === "ECB's Schnabel speech") as Indicator;
    const days = releaseTimes(schnabel, Date.UTC(2026, 11, 21), Date.UTC(2027, 0, 9), () => 0).map(
      (t) => localDate(t, 'Europe/Berlin'),
    );
    // every weekday but the holidays (25 December, 1 January)
    expect(days).toEqual([
      '2026-12-21',
      '2026-12-22',
      '2026-12-23',
      '2026-12-24',
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-04',
      '2027-01-05',
      '2027-01-06',
      '2027-01-07',
      '2027-01-08',
    ]);
  });
});
