// @clock any-day — it reads the demo schedule of the day it runs; CI runs it on the clock matrix
/**
 * The desk relay's webcal feed (issue #16, item 17): a real relay on loopback with the
 * simulator as the service and the desk's keys, a real user token. The relay's clock is a
 * manual one, so the feed cache's window is crossed by moving it, not by waiting.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import type { SimEventDate } from '../../../src/simulator/data/calendar.js';
import { tempDir } from '../relay/helpers.js';
import { parseIcs } from './ics.js';

const DAY = 86_400_000;
let sim: RunningSimulator;
let relay: RunningRelay;
let bare: RunningRelay;
let users: UserDirectory;
let alice = '';
let clock = Date.now();
const data = tempDir('mb-feed-');

async function call(url: string, method = 'GET', bearer?: string, body?: unknown, type?: string) {
  const res = await request(url, {
    method: method as 'GET',
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': type ?? 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

const apiRequests = () => sim.state.apiRequests;

/** Event dates of one event inside the feed's window (past 7 days to next 90). */
function datesOf(eventId: string): SimEventDate[] {
  return [...sim.state.eventDates.values()].filter(
    (ed) =>
      ed.eventId === eventId &&
      Date.parse(ed.dateUtc) >= clock - 7 * DAY &&
      Date.parse(ed.dateUtc) <= clock + 90 * DAY,
  );
}

/** An event of its own with one date `inDays` ahead: what the demo week holds is no matter. */
async function makeEvent(name: string, inDays: number, allDay: boolean): Promise<string> {
  const post = async <T>(path: string, body: unknown) => {
    const res = await call(`${sim.url}${path}`, 'POST', undefined, body);
    expect(res.status, res.text).toBe(201);
    return JSON.parse(res.text) as T;
  };
  const event = await post<{ id: string }>('/_sim/events', {
    name,
    countryCode: 'US',
    currencyCode: 'USD',
    volatility: allDay ? 'NONE' : 'HIGH',
  });
  const at = clock + inDays * DAY;
  await post('/_sim/event-dates', {
    eventId: event.id,
    dateUtc: allDay
      ? `${new Date(at).toISOString().slice(0, 10)}T00:00:00.000Z`
      : new Date(at).toISOString(),
    isAllDay: allDay,
    volatility: allDay ? 'NONE' : 'HIGH',
    consensus: allDay ? null : 0.3,
  });
  return event.id;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 4, autoplay: false, speed: 0, log: () => undefined });
  const db = openRelayDatabase(data);
  users = new UserDirectory(db);
  alice = users.add('alice').token;
  relay = await startRelay({
    dataDir: data,
    secret: 'feed-test-secret',
    token: 'feed-test-legacy-token',
    now: () => clock,
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl, cacheMs: 60_000 },
  });
  bare = await startRelay({
    dataDir: tempDir('mb-feed-bare-'),
    secret: 'bare-secret',
    token: 'bare-legacy-token',
    calendarFeed: { calendarUrl: sim.calendarUrl },
  });
}, 60_000);

afterAll(async () => {
  await relay?.close();
  await bare?.close();
  await sim?.close();
});

describe('webcal feed of watched events', () => {
  let feedUrl = '';
  let cpi = '';
  let holiday = '';

  it('hands each user a feed URL (same URL when asked again) and a webcal:// twin', async () => {
    const first = await call(`${relay.url}/calendar/feed-url`, 'GET', alice);
    expect(first.status).toBe(200);
    const body = JSON.parse(first.text) as { url: string; webcal: string };
    expect(body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/calendar\/mbf_[\w-]{43}\.ics$/);
    expect(body.webcal).toBe(body.url.replace('http://', 'webcal://'));
    const again = JSON.parse((await call(`${relay.url}/calendar/feed-url`, 'GET', alice)).text);
    expect(again.url).toBe(body.url);
    feedUrl = body.url;
    expect((await call(`${relay.url}/calendar/feed-url`)).status).toBe(401);
  });

  it('serves the watched events as iCalendar: stable UIDs, UTC start, flag + name + impact', async () => {
    cpi = await makeEvent('Test CPI (MoM)', 2, false);
    holiday = await makeEvent('Test Bank Holiday', 3, true);
    const put = await call(`${relay.url}/watchlist`, 'PUT', alice, { eventIds: [cpi, holiday] });
    expect(put.status, put.text).toBe(200);

    const res = await call(feedUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const { calendar, events } = parseIcs(res.text);
    expect(calendar[0]).toBe('BEGIN:VCALENDAR');
    expect(calendar).toContain('X-WR-CALNAME:Macrobell — watched releases');

    const expected = [...datesOf(cpi), ...datesOf(holiday)];
    expect(expected.length).toBeGreaterThan(1);
    expect(events.map((e) => e.get('UID')).sort()).toEqual(
      expected.map((ed) => `${ed.id}@macrobell`).sort(),
    );
    for (const ed of datesOf(cpi)) {
      const ev = events.find((e) => e.get('UID') === `${ed.id}@macrobell`) as Map<string, string>;
      const utc = new Date(ed.dateUtc)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
      expect(ev.get('DTSTART')).toBe(utc);
      expect(ev.get('SUMMARY')).toMatch(new RegExp(`^\\S+ ${ed.countryCode} .+ \\(HIGH\\)$`, 'u'));
      expect(ev.get('SUMMARY')).toContain(ed.name.replace(/([,;])/g, '\\$1'));
      if (ed.consensus !== null) expect(ev.get('DESCRIPTION')).toContain('Consensus: ');
    }
    const us = events.find((e) => e.get('SUMMARY')?.includes(' US '));
    if (us) expect(us.get('SUMMARY')?.startsWith('🇺🇸 US ')).toBe(true);
    for (const ed of datesOf(holiday)) {
      const ev = events.find((e) => e.get('UID') === `${ed.id}@macrobell`) as Map<string, string>;
      expect(ev.get('DTSTART;VALUE=DATE')).toBe(ed.dateUtc.slice(0, 10).replace(/-/g, ''));
    }
  });

  it('asks the service once for two feed reads inside the cache window, again after it', async () => {
    clock += 61_000;
    const before = apiRequests();
    const a = await call(feedUrl);
    const b = await call(feedUrl);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(apiRequests() - before).toBe(1);
    clock += 61_000;
    await call(feedUrl);
    expect(apiRequests() - before).toBe(2);
  });

  it('answers a poll with nothing new with 304 (ETag and Last-Modified)', async () => {
    const res = await call(feedUrl);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await request(feedUrl, { headers: { 'if-none-match': etag } });
    await again.body.text();
    expect(again.statusCode).toBe(304);
    // A proxy that compresses weakens the tag; the feed compares weakly, as RFC 9110 says.
    const weak = await request(feedUrl, { headers: { 'if-none-match': `"other", W/${etag}` } });
    await weak.body.text();
    expect(weak.statusCode).toBe(304);
    const stale = await request(feedUrl, { headers: { 'if-none-match': 'W/"other"' } });
    await stale.body.text();
    expect(stale.statusCode).toBe(200);
    const since = await request(feedUrl, {
      headers: { 'if-modified-since': res.headers['last-modified'] as string },
    });
    await since.body.text();
    expect(since.statusCode).toBe(304);
  });

  it('refuses bad watch lists with a 400 that says what is wrong', async () => {
    const url = `${relay.url}/watchlist`;
    const notIds = await call(url, 'PUT', alice, { eventIds: ['USA CPI'] });
    expect(notIds.status).toBe(400);
    expect(JSON.parse(notIds.text).message).toMatch(/eventIds\.0: not an event id/);
    const tooMany = Array.from({ length: 501 }, () => crypto.randomUUID());
    const many = await call(url, 'PUT', alice, { eventIds: tooMany });
    expect(many.status).toBe(400);
    expect(JSON.parse(many.text).message).toMatch(/at most 500/);
    const shape = await call(url, 'PUT', alice, ['x']);
    expect(shape.status).toBe(400);
    expect(JSON.parse(shape.text).message).toMatch(/eventIds/);
    const broken = await call(url, 'PUT', alice, '{"eventIds": [', 'application/json');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.text).message).toMatch(/not valid JSON/);
    // the good list is untouched by the refused ones
    const kept = JSON.parse((await call(url, 'GET', alice)).text) as { eventIds: string[] };
    expect(kept.eventIds).toEqual([cpi, holiday]);
  });

  it('rotates: the new URL serves, the old one is 404', async () => {
    const rotated = await call(`${relay.url}/calendar/feed-url`, 'POST', alice);
    expect(rotated.status).toBe(200);
    const { url } = JSON.parse(rotated.text) as { url: string };
    expect(url).not.toBe(feedUrl);
    expect((await call(feedUrl)).status).toBe(404);
    expect((await call(url)).status).toBe(200);
    feedUrl = url;
  });

  it('404s the feed of a revoked user, and a user added again gets a new URL', async () => {
    expect(users.revoke('alice')).toBe(true);
    const gone = await call(feedUrl);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain('BEGIN:VCALENDAR');
    const back = users.add('alice').token;
    expect((await call(feedUrl)).status).toBe(404);
    const fresh = JSON.parse((await call(`${relay.url}/calendar/feed-url`, 'GET', back)).text);
    expect(fresh.url).not.toBe(feedUrl);
    expect((await call(fresh.url as string)).status).toBe(200);
  });

  it('answers 501 with a plain message on a relay without provider keys', async () => {
    const res = await call(`${bare.url}/calendar/feed-url`, 'GET', 'bare-legacy-token');
    expect(res.status).toBe(501);
    expect(JSON.parse(res.text).message).toMatch(/no provider keys.*relay keys set/);
    const put = await call(`${bare.url}/watchlist`, 'PUT', 'bare-legacy-token', { eventIds: [] });
    expect(put.status).toBe(501);
  });
});
