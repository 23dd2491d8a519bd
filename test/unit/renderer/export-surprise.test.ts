/** Exports (issue #16, 17) and surprise maths (16): pure functions. */
import { describe, expect, it } from 'vitest';
import { eventDateFixture } from '../../fixtures/domain.js';
import { googleCalendarUrl, toCsv, toIcs } from '../../../src/renderer/src/lib/export.js';
import { buildItems, sortDaysBySurprise } from '../../../src/renderer/src/lib/items.js';
import { weekRows } from '../../../src/renderer/src/components/calendar/TimeNav.js';
import { surpriseHistory } from '../../../src/renderer/src/components/detail/Surprises.js';
import { directionOf, surpriseDelta, surpriseZ } from '../../../src/shared/format.js';
import { countdown } from '../../../src/renderer/src/lib/time.js';

const nfp = eventDateFixture({ id: 'ed1', actual: 275, consensus: 200, previous: 229 });
const holiday = eventDateFixture({
  id: 'ed2',
  name: 'Thanksgiving Day',
  dateUtc: '2026-11-26T00:00:00Z',
  isAllDay: true,
  consensus: null,
  previous: null,
});

describe('iCalendar export', () => {
  it('writes one VEVENT per release in UTC, holidays as dates, with CRLF and escaping', () => {
    const ics = toIcs(
      [{ ...nfp, name: 'Payrolls, revised; final' }, holiday],
      Date.parse('2026-11-01T00:00:00Z'),
    );
    const lines = ics.split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines).toContain('DTSTART:20261106T133000Z');
    expect(lines).toContain('DTEND:20261106T134500Z');
    expect(lines).toContain('SUMMARY:US Payrolls\\, revised\\; final');
    expect(lines).toContain('DTSTART;VALUE=DATE:20261126');
    expect(lines).toContain('DTEND;VALUE=DATE:20261127');
    expect(lines).toContain('UID:ed1@macrobell');
    expect(lines).toContain('DTSTAMP:20261101T000000Z');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(lines.every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const long = toIcs([{ ...nfp, name: 'É'.repeat(80) }], 0);
    const summary = long.slice(long.indexOf('SUMMARY:'), long.indexOf('DESCRIPTION:'));
    expect(summary).toContain('\r\n ');
    expect(summary.replace(/\r\n /g, '')).toBe(`SUMMARY:US ${'É'.repeat(80)}\r\n`);
  });
});

describe('CSV export', () => {
  it('writes each figure as shown with its unit, as numbers a spreadsheet reads', () => {
    const pmi = {
      ...nfp,
      name: 'ISM PMI',
      unit: null,
      potency: 'ZERO',
      actual: 52,
      consensus: 51.8,
      previous: -0.5,
    };
    const bill = {
      ...nfp,
      name: '3-Month Bill',
      unit: '%',
      potency: 'ZERO',
      actual: 4.2,
      consensus: 4.191,
      previous: 4.195,
    };
    const [, nfpRow, pmiRow, billRow] = toCsv([nfp, pmi, bill]).split('\r\n');
    expect(nfpRow).toMatch(/,275,200,229,,K$/);
    expect(pmiRow).toMatch(/,52\.0,51\.8,-0\.5,,$/);
    expect(billRow).toMatch(/,4\.200,4\.191,4\.195,,%$/);
  });

  it('writes raw numbers, quotes separators and neutralises formula starts', () => {
    const csv = toCsv([{ ...nfp, name: '=HYPERLINK("x"), "quoted"' }, holiday]);
    const [head, first, second] = csv.split('\r\n');
    expect(head).toBe(
      'Date (UTC),All day,Country,Currency,Impact,Event,Actual,Consensus,Previous,Previous revised from,Unit',
    );
    expect(first).toBe(
      `2026-11-06T13:30:00Z,no,US,USD,HIGH,"'=HYPERLINK(""x""), ""quoted""",275,200,229,,K`,
    );
    expect(second).toBe('2026-11-26T00:00:00Z,yes,US,USD,HIGH,Thanksgiving Day,,,,,');
  });

  it('exports the week shown (Monday to Sunday, local days)', () => {
    const at = (id: string, dateUtc: string) => eventDateFixture({ id, dateUtc });
    const rows = [
      at('sun-before', '2026-11-22T15:00:00Z'),
      at('mon', '2026-11-23T15:00:00Z'),
      at('sun', '2026-11-30T02:00:00Z'), // Sunday evening in New York, Monday in UTC
      at('next-mon', '2026-11-30T15:00:00Z'),
    ];
    expect(weekRows(rows, '2026-11-25', 'America/New_York').map((r) => r.id)).toEqual([
      'mon',
      'sun',
    ]);
    expect(weekRows(rows, '2026-11-25', 'UTC').map((r) => r.id)).toEqual(['mon']);
  });

  it('links one release to Google Calendar', () => {
    const url = new URL(googleCalendarUrl(nfp));
    expect(url.searchParams.get('dates')).toBe('20261106T133000Z/20261106T134500Z');
    expect(url.searchParams.get('text')).toBe('US Nonfarm Payrolls');
  });
});

describe('surprise', () => {
  it('is actual − consensus, and direction is against consensus', () => {
    expect(surpriseDelta({ actual: 0.3, consensus: 0.1 })).toBe(0.2);
    expect(surpriseDelta({ actual: null, consensus: 0.1 })).toBeNull();
    expect(directionOf({ actual: 2.6, consensus: 2.7 })).toBe('below');
    expect(directionOf({ actual: 2.7, consensus: 2.7 })).toBe('equal');
  });

  it('scores a surprise against the event’s own history (z), needing 8 past surprises', () => {
    const eight = [1, -1, 2, -2, 1, -1, 2, -2];
    expect(surpriseZ(10, eight)).toBeCloseTo(5.92, 2); // 10 / sd √(20/7)
    expect(surpriseZ(10, eight.slice(1))).toBeNull();
    expect(surpriseZ(10, [1, 1, 1, 1, 1, 1, 1, 1])).toBeNull();
    const history = [40, -10, 20, -30, 10, 0, 30, -20, 10, -10].map((d, i) =>
      eventDateFixture({ id: `h${i}`, actual: 200 + d, consensus: 200 }),
    );
    const h = surpriseHistory(history);
    expect(h.map((x) => x.delta)).toEqual([40, -10, 20, -30, 10, 0, 30, -20, 10, -10]);
    // (40 − mean 0) / sd 19.36 of the nine older ones
    expect(h[0]?.z).toBeCloseTo(2.07, 2);
    expect(h[0]?.n).toBe(9);
    expect(h[1]?.z).not.toBeNull(); // 8 older
    expect(h[2]?.z).toBeNull(); // 7 older
  });

  it('sorts each day by the size of the deviation score, unscored after in time order', () => {
    const row = (id: string, hour: number, dev: number | null) =>
      eventDateFixture({
        id,
        dateUtc: `2026-11-23T${String(hour).padStart(2, '0')}:00:00Z`,
        actual: dev === null ? null : 1,
        ratioDeviation: dev,
      });
    const items = buildItems(
      [row('a', 8, 0.2), row('b', 9, null), row('c', 10, -2.5), row('d', 11, 1)],
      'UTC',
    );
    expect(sortDaysBySurprise(items).map((it) => (it.kind === 'row' ? it.ed.id : it.kind))).toEqual(
      ['day', 'c', 'd', 'a', 'b'],
    );
  });
});

describe('countdown', () => {
  it('counts in days and hours beyond a day', () => {
    expect(countdown(((7 * 24 + 19) * 3600 + 54 * 60) * 1000, 0)).toBe('in 7d 19h');
    expect(countdown(0, 26 * 3_600_000)).toBe('1d 2h ago');
  });
});
