/**
 * Issue #45, item 4: holidays outside the US move or drop releases and speeches as the
 * agencies do (and, in its last rounds, the UK's bank holidays, Japan's national holidays and
 * China's whole holiday calendar with its make-up working days). The holiday dates are written
 * out here by hand (the calendars of the ECB's TARGET2, the UK's bank holidays, Japan's
 * national holidays, the State Council's notices), not computed as the simulator computes them.
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
  // 2027: Christmas on a Saturday, Boxing Day on a Sunday, observed 27 and 28 December;
  // the bank holidays: Early May (4 May 2026, 3 May 2027), Spring (25 May, 31 May) and
  // Summer (31 August, 30 August)
  UK: [
    '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31', '2026-12-25', '2026-12-28',
    '2027-01-01', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-08-30', '2027-12-27', '2027-12-28',
  ],
  CH: ['2026-04-03', '2026-04-06', '2026-12-25', '2026-12-26', '2027-01-01', '2027-01-02'],
  // The national holidays (Cabinet Office list) on weekdays, New Year 1–3 January. 2026:
  // Coming of Age 12 Jan, Foundation Day 11 Feb, the Emperor's Birthday 23 Feb, the vernal
  // equinox 20 Mar, Golden Week 29 April, 4–5 May and 6 May for Sunday 3 May, Marine Day
  // 20 Jul, Mountain Day 11 Aug, Respect for the Aged 21 Sep, 22 Sep between two holidays,
  // the autumnal equinox 23 Sep, Sports Day 12 Oct, Culture Day 3 Nov, Labour Thanksgiving
  // 23 Nov. 2027: the vernal equinox on Sunday 21 March, made up on 22 March.
  JP: [
    '2026-01-01', '2026-01-02', '2026-01-12', '2026-02-11', '2026-02-23', '2026-03-20', '2026-04-29',
    '2026-05-04', '2026-05-05', '2026-05-06', '2026-07-20', '2026-08-11', '2026-09-21', '2026-09-22',
    '2026-09-23', '2026-10-12', '2026-11-03', '2026-11-23',
    '2027-01-01', '2027-01-11', '2027-02-11', '2027-02-23', '2027-03-22', '2027-04-29', '2027-05-03',
    '2027-05-04', '2027-05-05', '2027-07-19', '2027-08-11', '2027-09-20', '2027-09-23', '2027-10-11',
    '2027-11-03', '2027-11-23',
  ],
  // The weekdays off of the State Council's notice for 2026: New Year 1–3 January, Spring
  // Festival 15–23 February, Qingming 4–6 April, Labour Day 1–5 May, Dragon Boat 19–21 June,
  // Mid-Autumn 25–27 September, National Day 1–7 October. 2027 (expected, not yet
  // announced): New Year 1 January, Spring Festival 5–13 February (the Lunar New Year on
  // Saturday 6 February), Qingming 3–5 April, Labour Day 1–5 May, Dragon Boat Wednesday
  // 9 June, Mid-Autumn Wednesday 15 September, National Day 1–7 October.
  CN: [
    '2026-01-01', '2026-01-02', '2026-02-16', '2026-02-17', '2026-02-18', '2026-02-19', '2026-02-20',
    '2026-02-23', '2026-04-06', '2026-05-01', '2026-05-04', '2026-05-05', '2026-06-19', '2026-09-25',
    '2026-10-01', '2026-10-02', '2026-10-05', '2026-10-06', '2026-10-07',
    '2027-01-01', '2027-02-05', '2027-02-08', '2027-02-09', '2027-02-10', '2027-02-11', '2027-02-12',
    '2027-04-05', '2027-05-03', '2027-05-04', '2027-05-05', '2027-06-09', '2027-09-15',
    '2027-10-01', '2027-10-04', '2027-10-05', '2027-10-06', '2027-10-07',
  ],
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

  const releasesIn = (name: string, country: string, y: number, m: number) => {
    const ind = INDICATORS.find((i) => i.name === name && i.country === country) as Indicator;
    return releaseTimes(ind, Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)).map((t) =>
      localDate(t, ZONE[country]!),
    );
  };

  it('a figure due on a holiday comes the next business day', () => {
    // the RatingDog (ex-Caixin) PMI (1st business day) and the customs' trade balance after National Day week
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2026, 10)).toEqual(['2026-10-08']);
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2027, 10)).toEqual(['2027-10-08']);
    expect(releasesIn('Trade Balance USD', 'CN', 2026, 10)).toEqual(['2026-10-08']);
    // national CPI on the third Friday, 20 March 2026 the vernal equinox: the Monday after
    expect(releasesIn('National CPI ex Fresh Food (YoY)', 'JP', 2026, 3)).toEqual(['2026-03-23']);
    // household spending after Silver Week (21–23 September 2026)
    expect(releasesIn('Household Spending (YoY)', 'JP', 2026, 9)).toEqual(['2026-09-24']);
    // the UK's services PMI after the Early May bank holiday
    expect(releasesIn('S&P Global Services PMI', 'UK', 2026, 5)).toEqual(['2026-05-05']);
  });

  it('China: a figure held by a holiday comes the next working day (Labour Day, Dragon Boat)', () => {
    // the RatingDog PMI, due on the first business day, Friday 1 May 2026: Wednesday 6 May
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2026, 5)).toEqual(['2026-05-06']);
    // Caixin's PMI came on Monday 6 May 2024, after Labour Day (1–5 May), and on Tuesday
    // 3 June 2025, after Dragon Boat (31 May–2 June)
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2024, 5)).toEqual(['2024-05-06']);
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2025, 6)).toEqual(['2025-06-03']);
    // a year with no notice (2028) keeps Labour Day 1–5 May: Monday 8 May
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2028, 5)).toEqual(['2028-05-08']);
  });

  it('China: a make-up working day is a business day (Saturday 9 May, Sunday 4 January 2026)', () => {
    // CPI and PPI near the 10th: Sunday 10 May 2026; Saturday 9 May is worked for Labour Day
    expect(releasesIn('Consumer Price Index (YoY)', 'CN', 2026, 5)).toEqual(['2026-05-09']);
    expect(releasesIn('Producer Price Index (YoY)', 'CN', 2026, 5)).toEqual(['2026-05-09']);
    // Saturday 10 October 2026 is worked for National Day: CPI on the day itself
    expect(releasesIn('Consumer Price Index (YoY)', 'CN', 2026, 10)).toEqual(['2026-10-10']);
    // the Loan Prime Rate on the 20th: Sunday 20 September 2026 is worked
    expect(releasesIn('PBoC Loan Prime Rate (1Y)', 'CN', 2026, 9)).toEqual(['2026-09-20']);
    // the first working day of 2026 after New Year (1–3 January) is Sunday 4 January
    expect(releasesIn('RatingDog Manufacturing PMI', 'CN', 2026, 1)).toEqual(['2026-01-04']);
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
