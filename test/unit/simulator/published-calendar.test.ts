/**
 * The demo's schedule against the published calendars (issue #36, item 5): the central
 * banks' 2026–2027 decision days, the FOMC blackout, US federal holidays, the agencies'
 * weekdays and times, and daylight saving. The expected dates are written out here, from the
 * banks' and agencies' own pages (docs/demo-calendar.md), not computed by the code under test.
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { INDICATORS, type Indicator } from '../../../src/simulator/data/indicators.js';
import { isTentativeRelease, releaseTimes } from '../../../src/simulator/data/schedule.js';

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 0, 1);
const TO = Date.UTC(2028, 0, 1);

/** Decision days as published (local dates); 2027 only where the bank had published it. */
const PUBLISHED: Record<string, { zone: string; time: string; dates: string[] }> = {
  'us-fed': {
    zone: 'America/New_York',
    time: '14:00',
    dates: [
      '2026-01-28', '2026-03-18', '2026-04-29', '2026-06-17', '2026-07-29', '2026-09-16', '2026-10-28', '2026-12-09',
      '2027-01-27', '2027-03-17', '2027-04-28', '2027-06-09', '2027-07-28', '2027-09-15', '2027-10-27', '2027-12-08',
    ],
  },
  'emu-ecb': {
    zone: 'Europe/Berlin',
    time: '14:15',
    dates: ['2026-02-05', '2026-03-19', '2026-04-30', '2026-06-11', '2026-07-23', '2026-09-10', '2026-10-29', '2026-12-17'],
  },
  'uk-boe': {
    zone: 'Europe/London',
    time: '12:00',
    dates: ['2026-02-05', '2026-03-19', '2026-04-30', '2026-06-18', '2026-07-30', '2026-09-17', '2026-11-05', '2026-12-17'],
  },
  'jp-boj': {
    zone: 'Asia/Tokyo',
    time: '12:00',
    dates: ['2026-01-23', '2026-03-19', '2026-04-28', '2026-06-16', '2026-07-31', '2026-09-18', '2026-10-30', '2026-12-18'],
  },
  'ca-boc': {
    zone: 'America/Toronto',
    time: '09:45',
    dates: ['2026-01-28', '2026-03-18', '2026-04-29', '2026-06-10', '2026-07-15', '2026-09-02', '2026-10-28', '2026-12-09'],
  },
  'au-rba': {
    zone: 'Australia/Sydney',
    time: '14:30',
    dates: ['2026-02-03', '2026-03-17', '2026-05-05', '2026-06-16', '2026-08-11', '2026-09-29', '2026-11-03', '2026-12-08'],
  },
  'nz-rbnz': {
    zone: 'Pacific/Auckland',
    time: '14:00',
    dates: ['2026-02-18', '2026-04-08', '2026-05-27', '2026-07-08', '2026-09-02', '2026-10-28', '2026-12-09', '2027-02-17'],
  },
  'ch-snb': {
    zone: 'Europe/Zurich',
    time: '09:30',
    dates: ['2026-03-19', '2026-06-18', '2026-09-24', '2026-12-10'],
  },
}; // prettier-ignore

/** Observed US federal holidays (OPM), 2026–2027, and 31 Dec 2027 for New Year's Day 2028. */
const US_HOLIDAYS = [
  '2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-07-03',
  '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25',
  '2027-01-01', '2027-01-18', '2027-02-15', '2027-05-31', '2027-06-18', '2027-07-05',
  '2027-09-06', '2027-10-11', '2027-11-11', '2027-11-25', '2027-12-24', '2027-12-31',
]; // prettier-ignore

/** FOMC blackouts: the second Saturday before the meeting through the day after it. */
const BLACKOUTS: [string, string][] = [
  ['2026-01-17', '2026-01-29'], ['2026-03-07', '2026-03-19'], ['2026-04-18', '2026-04-30'],
  ['2026-06-06', '2026-06-18'], ['2026-07-18', '2026-07-30'], ['2026-09-05', '2026-09-17'],
  ['2026-10-17', '2026-10-29'], ['2026-11-28', '2026-12-10'],
  ['2027-01-16', '2027-01-28'], ['2027-03-06', '2027-03-18'], ['2027-04-17', '2027-04-29'],
  ['2027-05-29', '2027-06-10'], ['2027-07-17', '2027-07-29'], ['2027-09-04', '2027-09-16'],
  ['2027-10-16', '2027-10-28'], ['2027-11-27', '2027-12-09'],
]; // prettier-ignore

const ind = (key: string): Indicator => INDICATORS.find((i) => i.key === key)!;
const every = () => 0; // a speaker on every weekday the rules allow

/** Local date, weekday and time of `t` in `zone`: "2026-12-09 Wed 14:00". */
function local(t: number, zone: string): { date: string; weekday: string; time: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(t)
      .map((x) => [x.type, x.value]),
  );
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    weekday: p.weekday!,
    time: `${p.hour}:${p.minute}`,
  };
}
const ny = (t: number) => local(t, 'America/New_York');
const usClock = (i: Indicator) =>
  i.category !== 'holidays' && (i.country === 'US' || i.name.startsWith('CFTC '));

describe('central-bank decisions in the demo (issue #36, item 5)', () => {
  it('fall on the days each bank published, at its announcement time in its own zone', () => {
    for (const [key, { zone, time, dates }] of Object.entries(PUBLISHED)) {
      const times = releaseTimes(ind(key), FROM, Date.UTC(2027, 0, 1));
      expect(
        times.map((t) => local(t, zone).date),
        key,
      ).toEqual(dates.filter((d) => d.startsWith('2026-')));
      for (const t of times) {
        expect(local(t, zone).time, `${key} ${local(t, zone).date}`).toBe(time);
        expect(isTentativeRelease(ind(key), t)).toBe(false);
      }
    }
  });

  it('in 2027: the FOMC and RBNZ dates as published, the others marked tentative', () => {
    const y2027 = (key: string) => releaseTimes(ind(key), Date.UTC(2027, 0, 1), TO);
    expect(y2027('us-fed').map((t) => ny(t).date)).toEqual(
      PUBLISHED['us-fed']!.dates.filter((d) => d.startsWith('2027-')),
    );
    for (const t of y2027('us-fed')) expect(isTentativeRelease(ind('us-fed'), t)).toBe(false);
    const rbnz = y2027('nz-rbnz');
    const published = rbnz.filter((t) => !isTentativeRelease(ind('nz-rbnz'), t));
    expect(published.map((t) => local(t, 'Pacific/Auckland').date)).toEqual(['2027-02-17']);
    for (const key of ['emu-ecb', 'uk-boe', 'jp-boj', 'ca-boc', 'au-rba', 'ch-snb']) {
      const times = y2027(key);
      expect(times.length, key).toBe(PUBLISHED[key]!.dates.length);
      for (const t of times) expect(isTentativeRelease(ind(key), t), key).toBe(true);
    }
  });

  it('the demo week never shows an untentative decision off the published days (seeds, 2026–2027)', () => {
    const published = new Set(
      Object.entries(PUBLISHED).flatMap(([key, v]) => v.dates.map((d) => `${key} ${d}`)),
    );
    const odd: string[] = [];
    let decisions = 0;
    for (let now = FROM + 3 * DAY; now < TO; now += 19 * DAY) {
      const { events, eventDates } = generateCalendar(now % 5, now);
      for (const m of events) {
        const key = m.indicator?.key ?? '';
        if (!PUBLISHED[key]) continue;
        for (const ed of [...m.history, ...eventDates.filter((e) => e.eventId === m.event.id)]) {
          const at = Date.parse(ed.dateUtc);
          if (at < FROM || at >= TO || ed.isTentative) continue;
          decisions++;
          const label = `${key} ${local(at, PUBLISHED[key]!.zone).date}`;
          if (!published.has(label)) odd.push(label);
        }
      }
    }
    expect(odd).toEqual([]);
    expect(decisions).toBeGreaterThan(100);
  });

  it('no ECB decision on Thursday 26 November 2026; the FOMC press conference only after the statement', () => {
    const nov = releaseTimes(ind('emu-ecb'), Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1));
    expect(nov).toEqual([]);
    const pressers = releaseTimes(ind('us-powell'), FROM, TO).map(ny);
    expect(pressers.map((p) => p.date)).toEqual(PUBLISHED['us-fed']!.dates);
    expect(new Set(pressers.map((p) => p.time))).toEqual(new Set(['14:30']));
    const ecbPress = releaseTimes(ind('emu-lagarde'), FROM, Date.UTC(2027, 0, 1));
    expect(ecbPress.map((t) => local(t, 'Europe/Berlin').time)).toEqual(Array(8).fill('14:45'));
  });
});

describe('Fed speakers and the FOMC blackout', () => {
  const speakers = INDICATORS.filter((i) => i.key.startsWith('us-speaker'));

  it('no Fed speaker from the second Saturday before a meeting through the day after', () => {
    const inBlackout = (d: string) => BLACKOUTS.some(([a, b]) => d >= a && d <= b);
    let spoken = 0;
    for (const s of speakers) {
      for (const t of releaseTimes(s, FROM, TO, every)) {
        spoken++;
        expect(inBlackout(ny(t).date), `${s.name} ${ny(t).date}`).toBe(false);
      }
    }
    // outside the blackouts they do speak (the rule removes the blackout, not every speech)
    expect(spoken).toBeGreaterThan(1000);
  });

  it('in the demo week of 2 December 2026: no Fed speaker at all (blackout 28 Nov – 10 Dec)', () => {
    const now = Date.parse('2026-12-02T14:05:00Z');
    const { eventDates } = generateCalendar(1, now);
    const fed = eventDates.filter((ed) => /^Fed's .* speech$/.test(ed.name));
    const dates = fed.map((ed) => ny(Date.parse(ed.dateUtc)).date);
    expect(dates.every((d) => d < '2026-11-28' || d > '2026-12-10')).toBe(true);
  });
});

describe('US agencies’ rules', () => {
  it('nothing US prints on a federal holiday: no data, auction, CFTC report or Fed speech', () => {
    const holidays = new Set(US_HOLIDAYS);
    const odd: string[] = [];
    for (const i of INDICATORS.filter(usClock)) {
      for (const t of releaseTimes(i, FROM, TO, every))
        if (holidays.has(ny(t).date)) odd.push(`${i.name} ${ny(t).date}`);
    }
    expect(odd).toEqual([]);
  });

  it('Thanksgiving 2026 in the demo: the holiday row only; jobless claims on the Wednesday', () => {
    const now = Date.parse('2026-11-26T15:00:00Z');
    const { eventDates } = generateCalendar(1, now);
    const onTheDay = eventDates.filter(
      (ed) =>
        (ed.countryCode === 'US' || ed.name.startsWith('CFTC ')) &&
        ny(Date.parse(ed.dateUtc)).date === '2026-11-26',
    );
    // the all-day row is dated midnight UTC, which New York reads as the evening before
    expect(onTheDay.map((ed) => ed.name)).toEqual([]);
    const holiday = eventDates.filter((ed) => ed.isAllDay && ed.countryCode === 'US');
    expect(holiday.map((ed) => ed.dateUtc)).toEqual(['2026-11-26T00:00:00Z']);
    const claims = eventDates.filter((ed) => ed.name === 'Initial Jobless Claims');
    expect(claims.map((ed) => ny(Date.parse(ed.dateUtc)))).toContainEqual({
      date: '2026-11-25',
      weekday: 'Wed',
      time: '08:30',
    });
  });

  it('ADP on Wednesdays at 08:15 ET, JOLTS on Tuesdays at 10:00 ET, in the week of the jobs report', () => {
    const adp = releaseTimes(ind('us-secondary-6'), FROM, TO).map(ny);
    const jolts = releaseTimes(ind('us-secondary-5'), FROM, TO).map(ny);
    // January 2026's fall on 30 and 31 December 2025, before the range
    expect(adp).toHaveLength(23);
    expect(jolts).toHaveLength(23);
    expect(new Set(adp.map((x) => `${x.weekday} ${x.time}`))).toEqual(new Set(['Wed 08:15']));
    expect(new Set(jolts.map((x) => `${x.weekday} ${x.time}`))).toEqual(new Set(['Tue 10:00']));
    expect(adp.slice(0, 3).map((x) => x.date)).toEqual(['2026-02-04', '2026-03-04', '2026-04-01']);
  });

  it('CFTC reports on Friday 15:30 ET for every currency; the Monday after in a holiday week', () => {
    const cftc = INDICATORS.filter((i) => i.name.startsWith('CFTC '));
    expect(cftc.length).toBeGreaterThan(5);
    const first = releaseTimes(cftc[0]!, FROM, TO);
    for (const c of cftc) expect(releaseTimes(c, FROM, TO), c.name).toEqual(first);
    const when = first.map(ny);
    for (const w of when) expect(w.time).toBe('15:30');
    const mondays = when.filter((w) => w.weekday !== 'Fri').map((w) => `${w.weekday} ${w.date}`);
    // Juneteenth (Fri 19 Jun), 3 Jul, Veterans Day (Wed 11 Nov), Thanksgiving, Christmas, …
    expect(mondays).toEqual([
      'Mon 2026-01-05', 'Mon 2026-06-22', 'Mon 2026-07-06', 'Mon 2026-11-16', 'Mon 2026-11-30',
      'Mon 2026-12-28', 'Mon 2027-01-04', 'Mon 2027-06-21', 'Mon 2027-11-15', 'Mon 2027-11-29',
      'Mon 2027-12-27',
    ]); // prettier-ignore
  });
});

describe('time zones and daylight saving', () => {
  const utc = (key: string, from: string, to: string) =>
    releaseTimes(ind(key), Date.parse(from), Date.parse(to)).map((t) => new Date(t).toISOString());

  it('US releases keep New York time across the March and November switches', () => {
    // US summer time from 8 Mar to 1 Nov 2026: the FOMC at 19:00 UTC in winter, 18:00 in summer
    expect(utc('us-fed', '2026-01-01', '2026-04-01')).toEqual([
      '2026-01-28T19:00:00.000Z',
      '2026-03-18T18:00:00.000Z',
    ]);
    expect(utc('us-fed', '2026-10-01', '2027-01-01')).toEqual([
      '2026-10-28T18:00:00.000Z',
      '2026-12-09T19:00:00.000Z',
    ]);
    // 2027: summer time from 14 March to 7 November
    expect(utc('us-nfp', '2027-03-01', '2027-04-30')).toEqual([
      '2027-03-05T13:30:00.000Z',
      '2027-04-02T12:30:00.000Z',
    ]);
    expect(utc('us-nfp', '2027-11-01', '2027-12-31')).toEqual([
      '2027-11-05T12:30:00.000Z',
      '2027-12-03T13:30:00.000Z',
    ]);
    // payrolls on Friday 6 March (before the switch) and 3 April (after it)
    expect(utc('us-nfp', '2026-03-01', '2026-04-30')).toEqual([
      '2026-03-06T13:30:00.000Z',
      '2026-04-03T12:30:00.000Z',
    ]);
  });

  it('the ECB keeps Frankfurt time; between the US and EU switches the gap to New York is 5 h', () => {
    // EU summer time from 29 Mar to 25 Oct 2026
    expect(utc('emu-ecb', '2026-03-01', '2026-05-01')).toEqual([
      '2026-03-19T13:15:00.000Z',
      '2026-04-30T12:15:00.000Z',
    ]);
    expect(utc('emu-ecb', '2026-10-01', '2026-11-01')).toEqual(['2026-10-29T13:15:00.000Z']);
    // 18 March 2026: New York already on summer time, Frankfurt not yet
    const fed = Date.parse(utc('us-fed', '2026-03-01', '2026-03-31')[0]!);
    expect(local(fed, 'Europe/Berlin').time).toBe('19:00');
  });

  it('the RBA keeps Sydney time, whose summer time ends on 5 April 2026', () => {
    expect(utc('au-rba', '2026-03-01', '2026-06-01')).toEqual([
      '2026-03-17T03:30:00.000Z',
      '2026-05-05T04:30:00.000Z',
    ]);
  });
});
