/** The demo calendar follows real release schedules (issue #16, 15). */
import { describe, expect, it, vi } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';
import { releaseTimes } from '../../../src/simulator/data/schedule.js';

const DAY = 86_400_000;
const ind = (key: string) => INDICATORS.find((i) => i.key === key)!;
const year = (key: string, y = 2026) =>
  releaseTimes(ind(key), Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1), () => 0.5);
const ny = (t: number) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(t);

describe('demo release schedules', () => {
  it('Nonfarm Payrolls: twelve a year, the first Friday at 8:30 New York time', () => {
    const nfp = year('us-nfp');
    expect(nfp).toHaveLength(12);
    for (const t of nfp) {
      // Friday 3 July 2026 is Independence Day observed: BLS publishes on the Thursday
      expect(ny(t)).toBe(new Date(t).getUTCMonth() === 6 ? 'Thu 8:30 AM' : 'Fri 8:30 AM');
      expect(new Date(t).getUTCDate()).toBeLessThanOrEqual(7);
    }
    // across daylight saving: 13:30 UTC in winter, 12:30 UTC in summer
    expect(new Date(nfp[0]!).toISOString()).toBe('2026-01-02T13:30:00.000Z');
    expect(new Date(nfp[6]!).toISOString()).toBe('2026-07-02T12:30:00.000Z');
  });

  it('CPI once a month; FOMC eight Wednesdays at 2 pm; ECB eight Thursdays', () => {
    const cpi = year('us-cpi-mm');
    expect(cpi.map((t) => new Date(t).getUTCMonth())).toEqual([...Array(12).keys()]);
    const fed = year('us-fed');
    expect(fed).toHaveLength(8);
    expect(new Set(fed.map(ny))).toEqual(new Set(['Wed 2:00 PM']));
    const ecb = year('emu-ecb');
    expect(ecb).toHaveLength(8);
    for (const t of ecb) expect(new Date(t).getUTCDay()).toBe(4);
  });

  it('Thanksgiving on the fourth Thursday of November, all day', () => {
    expect(year('us-holiday').map((t) => new Date(t).toISOString())).toEqual([
      '2026-11-26T00:00:00.000Z',
    ]);
    expect(year('us-holiday', 2027).map((t) => new Date(t).toISOString())).toEqual([
      '2027-11-25T00:00:00.000Z',
    ]);
  });

  it('history on the same cadence, at release times, not at the moment the demo started', () => {
    const now = Date.parse('2026-11-23T17:31:00Z');
    const { events, eventDates } = generateCalendar(3, now);
    const nfp = events.find((e) => e.indicator?.key === 'us-nfp')!;
    expect(nfp.history).toHaveLength(12);
    // a Friday holiday (3 July 2026) moves the report to the Thursday before
    for (const h of nfp.history)
      expect(['Fri 8:30 AM', 'Thu 8:30 AM']).toContain(ny(Date.parse(h.dateUtc)));
    const atStart = [...events.flatMap((e) => e.history), ...eventDates].filter((d) =>
      d.dateUtc.endsWith('17:31:00Z'),
    );
    expect(atStart).toEqual([]);
    // no indicator prints twice in a month (the old generator did, eleven days apart)
    const nfpInWindow = eventDates.filter((d) => d.eventId === nfp.event.id);
    expect(nfpInWindow.length).toBeLessThanOrEqual(1);
  });
});

describe('demo news', () => {
  it('varies with the calendar: no repeated titles, tags that match the story', async () => {
    const { generatePosts } = await import('../../../src/simulator/data/news.js');
    const now = Date.parse('2026-11-23T19:00:00Z');
    const { eventDates } = generateCalendar(3, now);
    const posts = generatePosts(3, now, eventDates).filter((p) => p.Culture === 'en-US');
    expect(posts.length).toBeGreaterThan(40);
    expect(new Set(posts.map((p) => p.Title)).size).toBe(posts.length);
    // a story about a print is tagged with that release's currency (never a random "Gold")
    const printed = eventDates.filter((d) => d.actual !== null);
    for (const p of posts.filter((x) => /expectations|in line|policy rate/.test(x.Title))) {
      const ed = printed.find((d) => p.Title.startsWith(`${d.countryCode} ${d.name}`));
      expect(ed, p.Title).toBeDefined();
      expect(p.Tags.map((t) => t.Name)).toContain(ed?.currencyCode);
    }
    expect(posts.every((p) => Date.parse(p.PublicationDate) < now)).toBe(true);
  });
});

describe('the demo’s start asks Intl for each zone’s offsets once', () => {
  it('each UTC midnight of a zone is read once, though it ends one day and starts the next', async () => {
    // a fresh copy of the module: its caches start empty
    vi.resetModules();
    const { generateCalendar: fresh } = await import('../../../src/simulator/data/calendar.js');
    const original = Intl.DateTimeFormat.prototype.formatToParts;
    const asked = new Map<string, number>();
    const spy = vi
      .spyOn(Intl.DateTimeFormat.prototype, 'formatToParts')
      .mockImplementation(function (this: Intl.DateTimeFormat, t?: number | Date) {
        const at = Number(t);
        if (at % DAY === 0) {
          const key = `${this.resolvedOptions().timeZone}|${new Date(at).toISOString()}`;
          asked.set(key, (asked.get(key) ?? 0) + 1);
        }
        return original.call(this, t);
      });
    try {
      fresh(7, Date.UTC(2031, 2, 20, 12));
    } finally {
      spy.mockRestore();
    }
    expect(asked.size).toBeGreaterThan(100);
    expect([...asked].filter(([, n]) => n > 1)).toEqual([]);
  });
});
