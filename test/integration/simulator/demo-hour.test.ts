/**
 * An hour of the demo looks like a real one (issue #26, defect 3): the simulator, with
 * autoplay on and its scenario clock moved minute by minute through the control API (no
 * sleeps), prints exactly the releases the real schedule holds in that hour and nothing
 * else, each with its own reference period, and publishes one story per print in each
 * culture, tagged with the print's currency and pair, no headline twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SimEventDate } from '../../../src/simulator/data/calendar.js';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';
import { CULTURES, tiedStoryFor } from '../../../src/simulator/data/news.js';
import { PAIRS } from '../../../src/simulator/data/release-news.js';
import { releaseTimes } from '../../../src/simulator/data/schedule.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { call, control, start, token } from './helpers.js';

type Ed = SimEventDate;
interface Post {
  Id: string;
  Title: string;
  Tags: { Name: string }[];
  Categories: { Name: string }[];
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Hours of a November 2026 week, and releases each must print with their own period. */
const HOURS: { start: string; periods: [string, string, string, string][] }[] = [
  {
    start: '2026-11-06T13:05:00Z', // Friday: payrolls for October
    periods: [
      ['US', 'Nonfarm Payrolls', '2026-10-01T00:00:00Z', 'MONTH'],
      ['US', 'Unemployment Rate', '2026-10-01T00:00:00Z', 'MONTH'],
    ],
  },
  {
    start: '2026-11-18T15:05:00Z', // Wednesday: EIA crude stocks for the week before
    periods: [['US', 'EIA Crude Oil Stocks Change', '2026-11-09T00:00:00Z', 'WEEK']],
  },
  {
    start: '2026-11-19T13:05:00Z', // Thursday: jobless claims for the week before
    periods: [['US', 'Initial Jobless Claims', '2026-11-09T00:00:00Z', 'WEEK']],
  },
  {
    start: '2026-11-19T15:05:00Z', // Thursday: a bill auction is its own day
    periods: [
      ['US', '4-Week Bill Auction', '2026-11-19T00:00:00Z', 'DAY'],
      ['US', 'EIA Natural Gas Storage Change', '2026-11-09T00:00:00Z', 'WEEK'],
    ],
  },
];

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function eventDates(s: RunningSimulator, from: number): Promise<Ed[]> {
  const cal = await token(s, 'calendar');
  const url = `${s.calendarUrl}/en/api/v1/eventDates/${iso(from - 7 * DAY)}/${iso(from + 14 * DAY)}`;
  const res = await call<Ed[]>(url, { token: cal });
  expect(res.status).toBe(200);
  return res.body;
}

async function posts(s: RunningSimulator, culture: string): Promise<Post[]> {
  const news = await token(s, 'news');
  const out: Post[] = [];
  for (let page = 1; ; page++) {
    const res = await call<{ Values: Post[]; Total: number }>(
      `${s.newsUrl}/v4/${culture}/post/filter/GeneralFeed?page=${page}`,
      { token: news },
    );
    expect(res.status).toBe(200);
    out.push(...res.body.Values);
    if (out.length >= res.body.Total || res.body.Values.length === 0) return out;
  }
}

/** The value-bearing releases the real schedule holds in (from, from + 1 h]. */
function scheduled(from: number): string[] {
  return INDICATORS.filter((i) => !i.speech && i.category !== 'holidays').flatMap((i) =>
    releaseTimes(i, from, from + HOUR).map((t) => `${i.country} ${i.name} @ ${iso(t)}`),
  );
}

const key = (d: Ed) => `${d.countryCode} ${d.name} @ ${d.dateUtc}`;

describe('an hour of demo time', () => {
  it.each(HOURS)('from $start prints the schedule, one story per print', async (hour) => {
    const from = Date.parse(hour.start);
    sim = await start({ seed: 7, now: from, speed: 0, autoplay: true });
    const datesBefore = await eventDates(sim, from);
    const postsBefore = new Map<string, Post[]>();
    for (const c of CULTURES) postsBefore.set(c, await posts(sim, c));

    for (let minute = 0; minute < 60; minute++)
      expect((await control(sim, 'POST', '/clock', { advanceMs: 60_000 })).status).toBe(200);

    const datesAfter = await eventDates(sim, from);
    expect(datesAfter.map((d) => d.id).sort()).toEqual(datesBefore.map((d) => d.id).sort());
    const pending = new Set(datesBefore.filter((d) => d.actual === null).map((d) => d.id));
    const printed = datesAfter.filter((d) => d.actual !== null && pending.has(d.id));
    expect(printed.map(key).sort()).toEqual(scheduled(from).sort());
    expect(printed.length).toBeGreaterThan(0);

    for (const [country, name, periodDateUtc, periodType] of hour.periods) {
      const d = printed.find((p) => p.countryCode === country && p.name === name);
      expect(d, `${country} ${name}`).toMatchObject({ periodDateUtc, periodType });
    }

    for (const culture of CULTURES) {
      const all = await posts(sim, culture);
      const seen = new Set(postsBefore.get(culture)!.map((p) => p.Id));
      const fresh = all.filter((p) => !seen.has(p.Id));
      expect(fresh, culture).toHaveLength(printed.length);
      for (const d of printed) {
        // the plain story, or the market story written about such a print (an EIA build…)
        const tied = tiedStoryFor(d);
        const about = fresh.filter((p) =>
          tied ? p.Title === tied.title[culture] : p.Title.startsWith(`${d.countryCode} ${d.name}`),
        );
        expect(about, `${culture}: ${key(d)}`).toHaveLength(1);
        const tags = about[0]!.Tags.map((t) => t.Name);
        expect(tags).toEqual([d.currencyCode, PAIRS[d.currencyCode], ...(tied ? [tied.tag] : [])]);
      }
      const titles = all.map((p) => p.Title);
      expect(
        titles.filter((t, i) => titles.indexOf(t) !== i),
        culture,
      ).toEqual([]);
    }
  });
});

describe('a restarted demo', () => {
  it('the next day shows the same prints and stories under the same ids (no copies)', async () => {
    const from = Date.parse('2026-11-19T13:05:00Z');
    sim = await start({ seed: 7, now: from, speed: 0, autoplay: true });
    for (let minute = 0; minute < 60; minute++)
      await control(sim, 'POST', '/clock', { advanceMs: 60_000 });
    const first = await eventDates(sim, from + HOUR);
    const firstPosts = await posts(sim, 'en-US');
    await sim.close();

    // the demo starts again the next day, as `npm start` after a night would
    const later = from + DAY;
    sim = await start({ seed: 7, now: later, speed: 0, autoplay: true });
    const again = new Map((await eventDates(sim, later)).map((d) => [d.id, d]));
    const both = first.filter((d) => Date.parse(d.dateUtc) >= later - 7 * DAY);
    expect(both.length).toBeGreaterThan(50);
    expect(both.map(key).filter((_, i) => !again.has(both[i]!.id))).toEqual([]);
    for (const d of both.filter((x) => x.actual !== null)) {
      expect(again.get(d.id), key(d)).toMatchObject({
        actual: d.actual,
        consensus: d.consensus,
        periodDateUtc: d.periodDateUtc,
      });
    }
    const byId = new Map(firstPosts.map((p) => [p.Id, p.Title]));
    for (const p of await posts(sim, 'en-US')) byId.set(p.Id, p.Title);
    const titles = [...byId.values()];
    expect(titles.filter((t, i) => titles.indexOf(t) !== i)).toEqual([]);
  });
});
