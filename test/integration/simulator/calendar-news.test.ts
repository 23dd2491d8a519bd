import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDateWireSchema, eventWireSchema, postWireSchema } from '../../../src/shared/wire.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { call, start, T0, token } from './helpers.js';

interface Ed {
  id: string;
  eventId: string;
  dateUtc: string;
  actual: number | null;
  consensus: number | null;
  ratioDeviation: number | null;
  isBetterThanExpected: boolean | null;
  countryCode: string;
  volatility: string;
  name: string;
  unit: string | null;
  potency: string | null;
  isSpeech: boolean;
  lastUpdated: number;
}
interface Post {
  Id: string;
  Title: string;
  Content: string;
  Culture: string;
  PublicationDate: string;
  Author: { Name: string };
  Tags: { Name: string }[];
}
interface Feed {
  Values: Post[];
  Page: number;
  PageSize: number;
  Total: number;
}

let sim: RunningSimulator;
let cal: string;
let news: string;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const windowUrl = (from = T0 - 7 * DAY, to = T0 + 14 * DAY, query = '') =>
  `${sim.calendarUrl}/en/api/v1/eventDates/${iso(from)}/${iso(to)}${query}`;

beforeAll(async () => {
  sim = await start();
  cal = await token(sim, 'calendar');
  news = await token(sim, 'news');
});
afterAll(() => sim.close());

describe('calendar', () => {
  it('returns several hundred valid event dates across the window, sorted, with past ones released', async () => {
    const res = await call<Ed[]>(windowUrl(), { token: cal });
    expect(res.status).toBe(200);
    const list = res.body;
    // one print a month per indicator, on the real schedule: about 200–300 in three weeks
    expect(list.length).toBeGreaterThanOrEqual(200);
    for (const ed of list) expect(eventDateWireSchema.safeParse(ed).success).toBe(true);
    const dates = list.map((d) => d.dateUtc);
    expect([...dates].sort()).toEqual(dates);
    const countries = new Set(list.map((d) => d.countryCode));
    for (const c of ['US', 'EMU', 'DE', 'UK', 'JP', 'CN', 'CA', 'AU', 'NZ', 'CH'])
      expect(countries).toContain(c);
    expect(new Set(list.map((d) => d.volatility))).toEqual(
      new Set(['NONE', 'LOW', 'MEDIUM', 'HIGH']),
    );
    const pastWithValues = list.filter(
      (d) => Date.parse(d.dateUtc) < T0 && !d.isSpeech && d.consensus !== null,
    );
    expect(pastWithValues.length).toBeGreaterThan(20);
    for (const d of pastWithValues) {
      expect(d.actual).not.toBeNull();
      expect(d.ratioDeviation).not.toBeNull();
    }
    const future = list.filter((d) => Date.parse(d.dateUtc) > T0);
    expect(future.every((d) => d.actual === null)).toBe(true);
    const nfp = list.find((d) => d.name === 'Nonfarm Payrolls');
    if (nfp) expect(nfp.potency).toBe('K');
  });

  it('filters: OR within a kind, AND across kinds', async () => {
    const both = await call<Ed[]>(windowUrl(undefined, undefined, '?countries=US&countries=UK'), {
      token: cal,
    });
    expect(both.body.length).toBeGreaterThan(0);
    expect(new Set(both.body.map((d) => d.countryCode))).toEqual(new Set(['US', 'UK']));
    const and = await call<Ed[]>(
      windowUrl(undefined, undefined, '?countries=US&volatilities=HIGH'),
      { token: cal },
    );
    expect(and.body.length).toBeGreaterThan(0);
    expect(and.body.every((d) => d.countryCode === 'US' && d.volatility === 'HIGH')).toBe(true);
    expect(and.body.length).toBeLessThan(both.body.length);
    // Central Banks category only
    const cb = await call<Ed[]>(
      windowUrl(undefined, undefined, '?categories=C94405B5-5F85-4397-AB11-002A481C4B92'),
      { token: cal },
    );
    expect(cb.body.length).toBeGreaterThan(0);
    for (const d of cb.body.slice(0, 5)) {
      const ev = await call<{ categoryId: string }>(
        `${sim.calendarUrl}/en/api/v1/events/${d.eventId}`,
        { token: cal },
      );
      expect(ev.body.categoryId).toBe('C94405B5-5F85-4397-AB11-002A481C4B92');
    }
  });

  it('answers bad dates and ranges with 400', async () => {
    const bad = await call<{ error: string }>(
      `${sim.calendarUrl}/en/api/v1/eventDates/yesterday/2026-03-02T00:00:00Z`,
      { token: cal },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTruthy();
    const reversed = await call(windowUrl(T0, T0 - DAY), { token: cal });
    expect(reversed.status).toBe(400);
  });

  it('serves one event date, its event (both paths) and its history newest first', async () => {
    const list = (await call<Ed[]>(windowUrl(), { token: cal })).body;
    const ed =
      list.find((d) => d.name === 'Consumer Price Index (YoY)' && d.countryCode === 'US') ??
      list[0]!;
    const one = await call<Ed>(`${sim.calendarUrl}/en/api/v1/eventDates/${ed.id}`, { token: cal });
    expect(one.body).toEqual(ed);
    const ev = await call(`${sim.calendarUrl}/en/api/v1/events/${ed.eventId}`, { token: cal });
    expect(ev.status).toBe(200);
    expect(eventWireSchema.parse(ev.body).id).toBe(ed.eventId);
    const short = await call(`${sim.calendarUrl}/events/${ed.eventId}`, { token: cal });
    expect(short.body).toEqual(ev.body);
    const hist = await call<Ed[]>(`${sim.calendarUrl}/en/api/v1/events/${ed.eventId}/historical`, {
      token: cal,
    });
    expect(hist.body.length).toBeGreaterThanOrEqual(8);
    const dates = hist.body.map((d) => d.dateUtc);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(
      hist.body.every(
        (d) =>
          d.eventId === ed.eventId && d.actual !== null && Date.parse(d.dateUtc) <= T0 + 60_000,
      ),
    ).toBe(true);
    // about a year back
    expect(Date.parse(dates.at(-1)!)).toBeLessThan(T0 - 200 * DAY);
  });

  it('translates names per language segment', async () => {
    const en = (await call<Ed[]>(windowUrl(undefined, undefined, '?countries=US'), { token: cal }))
      .body;
    const es = (
      await call<Ed[]>(windowUrl(undefined, undefined, '?countries=US').replace('/en/', '/es/'), {
        token: cal,
      })
    ).body;
    expect(es.map((d) => d.id)).toEqual(en.map((d) => d.id));
    const i = en.findIndex(
      (d) => d.name === 'Unemployment Rate' || d.name === 'Initial Jobless Claims',
    );
    expect(i).toBeGreaterThanOrEqual(0);
    expect(es[i]!.name).not.toBe(en[i]!.name);
    const ev = await call<{ name: string }>(
      `${sim.calendarUrl}/de/api/v1/events/${en[i]!.eventId}`,
      { token: cal },
    );
    expect(ev.body.name).not.toBe(en[i]!.name);
  });

  it('answers unknown ids with 404 JSON', async () => {
    for (const path of [
      '/en/api/v1/eventDates/nope',
      '/en/api/v1/events/nope',
      '/en/api/v1/events/nope/historical',
      '/en/api/v1/nothing',
    ]) {
      const res = await call<{ error: string }>(`${sim.calendarUrl}${path}`, { token: cal });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
  });

  it('lists the 12 real categories and the market-impact assets', async () => {
    const cats = await call<{ id: string; name: string }[]>(
      `${sim.calendarUrl}/en/api/v1/categories`,
      { token: cal },
    );
    expect(cats.body).toHaveLength(12);
    expect(cats.body).toContainEqual({
      id: '91DA97BD-D94A-4CE8-A02B-B96EE2944E4C',
      name: 'Labor Market',
    });
    const assets = await call<{ code: string; name: string; type: string }[]>(
      `${sim.calendarUrl}/en/api/v1/marketImpact/assets`,
      { token: cal },
    );
    expect(assets.body).toContainEqual(
      expect.objectContaining({ code: 'fxs-3212164', name: 'EUR/USD' }),
    );
  });

  it('generates the same market for the same seed and another for a different seed', async () => {
    const same = await start();
    const other = await start({ seed: 'other' });
    try {
      const a = (await call<Ed[]>(windowUrl(), { token: cal })).body;
      const b = (
        await call<Ed[]>(windowUrl().replace(sim.url, same.url), {
          token: await token(same, 'calendar'),
        })
      ).body;
      const c = (
        await call<Ed[]>(windowUrl().replace(sim.url, other.url), {
          token: await token(other, 'calendar'),
        })
      ).body;
      expect(b).toEqual(a);
      expect(c.map((d) => d.id)).not.toEqual(a.map((d) => d.id));
      const pa = (
        await call<Feed>(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=1`, { token: news })
      ).body;
      const pb = (
        await call<Feed>(`${same.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=1`, {
          token: await token(same, 'news'),
        })
      ).body;
      expect(pb).toEqual(pa);
    } finally {
      await same.close();
      await other.close();
    }
  });
});

describe('news', () => {
  it('pages the feed newest first per culture, with valid PascalCase posts', async () => {
    for (const culture of ['en-US', 'es-ES', 'de-DE']) {
      const p1 = await call<Feed>(`${sim.newsUrl}/v4/${culture}/post/filter/GeneralFeed?page=1`, {
        token: news,
      });
      expect(p1.status).toBe(200);
      expect(p1.body.Page).toBe(1);
      // a story per notable print of the demo week, a preview per big one, the market stories once
      expect(p1.body.Total).toBeGreaterThanOrEqual(40);
      expect(p1.body.Values).toHaveLength(p1.body.PageSize);
      const p2 = await call<Feed>(`${sim.newsUrl}/v4/${culture}/post/filter/GeneralFeed?page=2`, {
        token: news,
      });
      const all = [...p1.body.Values, ...p2.body.Values];
      expect(new Set(all.map((p) => p.Id)).size).toBe(all.length);
      const dates = all.map((p) => p.PublicationDate);
      expect([...dates].sort().reverse()).toEqual(dates);
      for (const p of all) {
        expect(postWireSchema.safeParse(p).success).toBe(true);
        expect(p.Culture).toBe(culture);
        expect(p.Content).toMatch(/<p>/);
        expect(p.Author.Name.length).toBeGreaterThan(0);
      }
    }
    const en = (
      await call<Feed>(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=1`, { token: news })
    ).body;
    // rich HTML (a heading, a list), and invented text links nowhere (issue #36)
    expect(en.Values.some((p) => /<h2>/.test(p.Content) && /<li>/.test(p.Content))).toBe(true);
    expect(en.Values.filter((p) => /<a\b/.test(p.Content))).toEqual([]);
    const beyond = await call<Feed>(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=999`, {
      token: news,
    });
    expect(beyond.body.Values).toEqual([]);
  });

  it('serves one post and 404s unknown ones and bad pages', async () => {
    const feed = (
      await call<Feed>(`${sim.newsUrl}/v4/de-DE/post/filter/GeneralFeed?page=1`, { token: news })
    ).body;
    const post = feed.Values[0]!;
    const one = await call<Post>(`${sim.newsUrl}/v4/de-DE/post/${post.Id}`, { token: news });
    expect(one.body).toEqual(post);
    expect((await call(`${sim.newsUrl}/v4/en-US/post/${post.Id}`, { token: news })).status).toBe(
      404,
    );
    expect((await call(`${sim.newsUrl}/v4/en-US/post/nope`, { token: news })).status).toBe(404);
    expect(
      (await call(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=0`, { token: news }))
        .status,
    ).toBe(400);
    expect(
      (await call(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=x`, { token: news }))
        .status,
    ).toBe(400);
  });
});
