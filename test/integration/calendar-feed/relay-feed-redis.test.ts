// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * The calendar feed on a desk of relay nodes sharing one real redis-server: a watch list
 * uploaded to one node and a feed URL made on one are served by every node holding the
 * same DATA/calendar-feed.key; a node with another key (or none) refuses feeds with what
 * to do; Redis away answers 503 and the feeds come back with it.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeedKey,
  keyFilePath,
  readFeedKey,
} from '../../../src/relay/calendar-feed/feed-key.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';
import { parseIcs } from './ics.js';

const DAY = 86_400_000;
let redis: TestRedis;
let sim: RunningSimulator;
let users: RedisUserStore;
let alice = '';
const relays: RunningRelay[] = [];
let nodeA: RunningRelay;
let nodeB: RunningRelay;
const dirA = tempDir('mb-feed-ha-a-');
const dirB = tempDir('mb-feed-ha-b-');

function startNode(dataDir: string, logLines?: string[]): Promise<RunningRelay> {
  const logger = logLines
    ? pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) })
    : undefined;
  return startRelay({
    dataDir,
    secret: 'feed-ha-secret',
    token: 'feed-ha-legacy-token',
    redis: { url: redis.url },
    logger,
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
  }).then((r) => (relays.push(r), r));
}

async function call(url: string, method = 'GET', bearer?: string, body?: unknown) {
  const res = await request(url, {
    method: method as 'GET',
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

const feedPath = (url: string) => new URL(url).pathname;

/** An event with a date inside the feed's window (past 7 days to next 90). */
function watchedEvent(): string {
  const now = Date.now();
  const ed = [...sim.state.eventDates.values()].find(
    (e) => Math.abs(Date.parse(e.dateUtc) - now) < 7 * DAY,
  );
  if (!ed) throw new Error('the simulator has no event date in the window');
  return ed.eventId;
}

beforeAll(async () => {
  redis = await startRedis();
  sim = await startSimulator({ seed: 4, autoplay: false, speed: 0, log: () => undefined });
  users = await RedisUserStore.open(redis.url);
  alice = (await users.add('alice')).token;
  nodeA = await startNode(dirA);
  nodeB = await startNode(dirB);
}, 60_000);

afterAll(async () => {
  for (const r of relays) await r.close();
  await users?.close();
  await sim?.close();
  await redis?.stop();
});

describe('the calendar feed on two relay nodes sharing one Redis', () => {
  let oldPath = '';
  let path = '';
  let eventId = '';

  it('serves on node B the watch list and the feed URL made on node A', async () => {
    const made = await call(`${nodeA.url}/calendar/feed-url`, 'GET', alice);
    expect(made.status, made.text).toBe(200);
    path = feedPath((JSON.parse(made.text) as { url: string }).url);
    // The key was made on first use on A; every node of the desk gets a copy of the file.
    copyFileSync(keyFilePath(dirA), keyFilePath(dirB));

    eventId = watchedEvent();
    const put = await call(`${nodeA.url}/watchlist`, 'PUT', alice, { eventIds: [eventId] });
    expect(put.status, put.text).toBe(200);
    const got = await call(`${nodeB.url}/watchlist`, 'GET', alice);
    expect(got.status).toBe(200);
    expect(JSON.parse(got.text)).toEqual(JSON.parse(put.text));

    const onB = await call(`${nodeB.url}/calendar/feed-url`, 'GET', alice);
    expect(feedPath((JSON.parse(onB.text) as { url: string }).url)).toBe(path);
    const ics = await call(`${nodeB.url}${path}`);
    expect(ics.status, ics.text).toBe(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const uids = parseIcs(ics.text).events.map((e) => e.get('UID'));
    const expected = [...sim.state.eventDates.values()].filter((e) => e.eventId === eventId);
    expect(uids.length).toBeGreaterThan(0);
    for (const uid of uids) expect(expected.map((e) => `${e.id}@macrobell`)).toContain(uid);
  });

  it('rotates on node B: the old URL is 404 on both nodes, the new one serves on A', async () => {
    const rotated = await call(`${nodeB.url}/calendar/feed-url`, 'POST', alice);
    expect(rotated.status).toBe(200);
    oldPath = path;
    path = feedPath((JSON.parse(rotated.text) as { url: string }).url);
    expect(path).not.toBe(oldPath);
    for (const node of [nodeA, nodeB])
      expect((await call(`${node.url}${oldPath}`)).status).toBe(404);
    expect((await call(`${nodeA.url}${path}`)).status).toBe(200);
  });

  it('refuses feeds on a node with another key file, logging what to do once', async () => {
    const dirC = tempDir('mb-feed-ha-c-');
    const wrongKey = createFeedKey(dirC).toString('base64url');
    const lines: string[] = [];
    const nodeC = await startNode(dirC, lines);
    const url = await call(`${nodeC.url}/calendar/feed-url`, 'GET', alice);
    expect(url.status).toBe(503);
    const message =
      "this node's DATA/calendar-feed.key differs from the one the desk's other nodes use: " +
      'copy it from a node that serves feeds';
    expect(JSON.parse(url.text)).toMatchObject({ error: 'feed_key_mismatch' });
    expect(JSON.parse(url.text).message).toContain(message);
    const ics = await call(`${nodeC.url}${path}`);
    expect(ics.status).toBe(503);
    expect(ics.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(ics.text).toContain(message);
    expect(ics.text).not.toContain('BEGIN:VCALENDAR');
    expect(lines.filter((l) => l.includes(message))).toHaveLength(1);
    const deskKey = (readFeedKey(dirA) as Buffer).toString('base64url');
    for (const l of lines) {
      expect(l).not.toContain(wrongKey);
      expect(l).not.toContain(deskKey);
    }
    // The watch list needs no key: the app's uploads still land.
    expect((await call(`${nodeC.url}/watchlist`, 'GET', alice)).status).toBe(200);
  });

  it('refuses feeds on a node without a key file rather than make a key of its own', async () => {
    const dirD = tempDir('mb-feed-ha-d-');
    const nodeD = await startNode(dirD);
    const url = await call(`${nodeD.url}/calendar/feed-url`, 'POST', alice);
    expect(url.status).toBe(503);
    expect(JSON.parse(url.text).message).toMatch(/copy it from a node that serves feeds/);
    expect(existsSync(keyFilePath(dirD))).toBe(false);
    // Not rotated by the refused POST: the desk's URL still serves.
    expect((await call(`${nodeA.url}${path}`)).status).toBe(200);
    // With the desk's key copied in, the node serves without a restart.
    copyFileSync(keyFilePath(dirA), keyFilePath(dirD));
    expect((await call(`${nodeD.url}${path}`)).status).toBe(200);
  });

  it('answers 500 (the reason in its log, not the answer) on a node with a damaged key file', async () => {
    const dirE = tempDir('mb-feed-ha-e-');
    writeFileSync(keyFilePath(dirE), 'short');
    const lines: string[] = [];
    const nodeE = await startNode(dirE, lines);
    const url = await call(`${nodeE.url}/calendar/feed-url`, 'GET', alice);
    expect(url.status).toBe(500);
    expect(JSON.parse(url.text).message).toMatch(/could not serve the calendar feed/);
    expect(lines.join('')).toMatch(/calendar-feed\.key is damaged/);
  });

  it('answers 503 with a message while Redis is away, and serves again once it is back', async () => {
    await redis.kill();
    const ics = await call(`${nodeA.url}${path}`);
    expect(ics.status).toBe(503);
    expect(ics.headers['retry-after']).toBe('1');
    expect(ics.text).toMatch(/cannot reach its store now; try again shortly/);
    const url = await call(`${nodeB.url}/calendar/feed-url`, 'GET', alice);
    expect(url.status).toBe(503);
    expect(url.headers['retry-after']).toBe('1');
    expect(JSON.parse(url.text).error).toBe('store_unavailable');

    await redis.restart();
    await waitFor(
      async () => (await call(`${nodeB.url}${path}`)).status === 200,
      'the feed on node B again',
      30_000,
    );
    const list = JSON.parse((await call(`${nodeA.url}/watchlist`, 'GET', alice)).text);
    expect(list.eventIds).toEqual([eventId]);
  }, 60_000);
});
