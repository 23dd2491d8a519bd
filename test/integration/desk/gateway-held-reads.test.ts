// @clock any-moment — it reads windows of its own (whatever they hold) and categories
/**
 * Issue #44: one trader re-reading a big window must not slow the desk's webhook ingest.
 * A reader in a loop with an empty bucket got thousands of 429s a second, each one a
 * request the relay parsed, authenticated and answered; and a kept window was indexed
 * again every time it expired (a second for event dates), a parse of the whole body.
 * Now a refused read is held until the trader's next token is due and tried once more,
 * with bounded places (past them: 429 at once, connection closed); and a service answer
 * the same as the expired one keeps its index.
 *
 * The gateway runs in this process before the simulator; the bucket and the cache run on
 * clocks the test moves, and the hold is a wait the test releases: counts, not timing.
 */
import type { Server } from 'node:http';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenManager } from '../../../src/node/oauth/token-manager.js';
import { MemoryDeskLimits } from '../../../src/relay/desk/desk-limits.js';
import {
  createGateway,
  UPSTREAM_READS_BURST,
  UPSTREAM_READS_PER_SECOND,
  type Gateway,
} from '../../../src/relay/gateway/index.js';
import { HELD_PER_TRADER } from '../../../src/relay/gateway/held-refusals.js';
import { EVENT_DATES_TTL_MS } from '../../../src/relay/gateway/read-routes.js';
import { DESK_PRIVATE, DESK_PUBLIC, spawnSimulator, stopAll, type Proc } from './processes.js';
import { serveGateway } from './gateway-server.js';

const NOW = Date.parse('2026-01-05T12:00:00.000Z');
const DAY = 86_400_000;
let sim: Proc;
let server: Server;
let gateway: Gateway;
let url = '';
/** Enough connections for every read the tests hold at once. */
const agent = new Agent({ connections: 64 });
/** The bucket's clock and the cache's: pinned, moved on by the test alone. */
let bucketClock = NOW;
let cacheClock = NOW;
const limits = new MemoryDeskLimits(() => bucketClock);
/** The holds in progress, released by the test. */
const holds: { ms: number; release: () => void }[] = [];

beforeAll(async () => {
  sim = await spawnSimulator();
  const tokens = new TokenManager({
    authUrl: () => `${sim.url}/auth`,
    credentials: async () => ({ publicKey: DESK_PUBLIC, privateKey: DESK_PRIVATE }),
  });
  gateway = createGateway({
    calendarUrl: `${sim.url}/calendar`,
    newsUrl: `${sim.url}/news`,
    tokens: () => tokens,
    admit: (user, cost) =>
      limits.take('gateway', user, UPSTREAM_READS_PER_SECOND, UPSTREAM_READS_BURST, cost),
    now: () => cacheClock,
    wait: (ms) => new Promise<void>((release) => holds.push({ ms, release })),
  });
  ({ server, url } = await serveGateway(gateway));
}, 60_000);

afterAll(async () => {
  for (const h of holds.splice(0)) h.release();
  await agent.close();
  await new Promise((r) => server?.close(r));
  await stopAll([sim]);
});

const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const week = `/eventDates/${at(NOW - 3 * DAY)}/${at(NOW + 3 * DAY)}`;

async function get(path: string, user: string) {
  const res = await request(`${url}/service/calendar/en/api/v1${path}`, {
    headers: { authorization: `Bearer ${user}` },
    dispatcher: agent,
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

async function drain(user: string): Promise<void> {
  while (
    (await limits.take('gateway', user, UPSTREAM_READS_PER_SECOND, UPSTREAM_READS_BURST)) === 0
  );
}

/** Resolves once `n` reads are held (the gateway's own count), polled on the event loop. */
async function held(n: number): Promise<void> {
  while (gateway.stats().holding !== n) await new Promise((r) => setImmediate(r));
}

describe("a trader's refused reads", () => {
  it('are held until a token is due, then answered', async () => {
    await drain('alice');
    const before = gateway.stats();
    let answered = false;
    const read = get('/categories', 'alice').then((r) => ((answered = true), r));
    await held(1);
    expect(answered).toBe(false);
    // The hold is the wait the bucket named: a whole token at 2 a second.
    expect(holds.map((h) => h.ms)).toEqual([1000 / UPSTREAM_READS_PER_SECOND]);
    bucketClock += 1000 / UPSTREAM_READS_PER_SECOND;
    holds.shift()?.release();
    const r = await read;
    expect(r.status).toBe(200);
    const after = gateway.stats();
    expect([after.held - before.held, after.refusedAtOnce - before.refusedAtOnce]).toEqual([1, 0]);
    expect(after.holding).toBe(0);
  });

  it('are held in bounded numbers: past them refused at once, the connection closed', async () => {
    await drain('mallory');
    const before = gateway.stats();
    const extra = 3;
    const reads = Array.from({ length: HELD_PER_TRADER + extra }, () => get(week, 'mallory'));
    await held(HELD_PER_TRADER);
    const answers = await Promise.all(reads.slice(HELD_PER_TRADER));
    // A colleague's refused read still gets a place of its own.
    await drain('bob');
    const bobs = get('/categories', 'bob');
    await held(HELD_PER_TRADER + 1);
    // The bucket has not refilled: each held read is refused after its hold, alike.
    for (const h of holds.splice(0)) h.release();
    answers.push(...(await Promise.all(reads.slice(0, HELD_PER_TRADER))));
    expect((await bobs).status).toBe(429);
    expect(answers.filter((a) => a.headers.connection === 'close')).toHaveLength(extra);
    expect(answers.map((a) => a.status)).toEqual(reads.map(() => 429));
    expect(new Set(answers.map((a) => `${a.headers['retry-after']} ${a.text}`)).size).toBe(1);
    const after = gateway.stats();
    expect(after.held - before.held).toBe(HELD_PER_TRADER + 1);
    expect(after.refusedAtOnce - before.refusedAtOnce).toBe(extra);
    expect(after.holding).toBe(0);
  });
});

describe('a window re-read past its lifetime', () => {
  it('is indexed once while the service answers the same bytes', async () => {
    const before = gateway.stats();
    const cut = `/eventDates/${at(NOW - 3 * DAY + 1)}/${at(NOW + 3 * DAY - 1)}`;
    const first = await get(cut, 'carol');
    expect(first.status).toBe(200);
    const rounds = 5;
    for (let i = 0; i < rounds; i++) {
      cacheClock += EVENT_DATES_TTL_MS;
      bucketClock += 1000;
      const again = await get(cut, 'carol');
      expect([again.status, again.text, again.headers.etag]).toEqual([
        200,
        first.text,
        first.headers.etag,
      ]);
    }
    const after = gateway.stats();
    expect(after.upstreamRequests - before.upstreamRequests).toBe(rounds + 1);
    expect(after.indexed - before.indexed).toBe(1);
    expect(after.unchanged - before.unchanged).toBe(rounds);
  });
});
