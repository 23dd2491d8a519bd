// @clock any-day — it reads three weeks of the demo schedule around today, any day has releases
/**
 * Issue #44, items 1 and 4: answers from the gateway's cache are not free work. A hit cost
 * no token, and the relay re-parsed a window's whole body on every hit: re-reading a
 * 6.4 MB window stalled webhook ingest. And with the bucket empty, 200 (kept) against 429
 * (not kept) told a trader which events colleagues had opened. Now a hit costs a fraction
 * of a miss, an empty bucket refuses both alike, and a kept window is cut from bytes
 * indexed once.
 *
 * The gateway runs in this process, reading the simulator with the desk's keys, on a
 * pinned clock (nothing refills the bucket behind the test's back); the bucket is the
 * relay's own (MemoryDeskLimits).
 */
import type { Server } from 'node:http';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TokenManager } from '../../../src/node/oauth/token-manager.js';
import { MemoryDeskLimits } from '../../../src/relay/desk/desk-limits.js';
import {
  createGateway,
  UPSTREAM_READS_BURST,
  UPSTREAM_READS_PER_SECOND,
} from '../../../src/relay/gateway/index.js';
import { HIT_COST, hitCost, MISS_COST } from '../../../src/relay/gateway/read-cache.js';
import {
  REFUSAL_WINDOW_MS,
  REFUSALS_LOGGED_PER_WINDOW,
} from '../../../src/relay/gateway/refusal-log.js';
import { DESK_PRIVATE, DESK_PUBLIC, spawnSimulator, stopAll, type Proc } from './processes.js';
import { serveGateway } from './gateway-server.js';

const NOW = Date.parse('2026-01-05T12:00:00.000Z');
const DAY = 86_400_000;
let sim: Proc;
let server: Server;
let url = '';
/** The gateway's clock: pinned, moved on by the test alone. */
let clock = NOW;
const logLines: { audit?: string; count?: number }[] = [];
const limits = new MemoryDeskLimits(() => NOW);
const take = (user: string) =>
  limits.take('gateway', user, UPSTREAM_READS_PER_SECOND, UPSTREAM_READS_BURST);

beforeAll(async () => {
  sim = await spawnSimulator();
  const tokens = new TokenManager({
    authUrl: () => `${sim.url}/auth`,
    credentials: async () => ({ publicKey: DESK_PUBLIC, privateKey: DESK_PRIVATE }),
  });
  const gateway = createGateway({
    calendarUrl: `${sim.url}/calendar`,
    newsUrl: `${sim.url}/news`,
    tokens: () => tokens,
    admit: (user, cost) =>
      limits.take('gateway', user, UPSTREAM_READS_PER_SECOND, UPSTREAM_READS_BURST, cost),
    now: () => clock,
    logger: pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) }),
  });
  ({ server, url } = await serveGateway(gateway));
}, 60_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await stopAll([sim]);
});

async function get(path: string, user: string) {
  const res = await request(`${url}/service/calendar/en/api/v1${path}`, {
    headers: { authorization: `Bearer ${user}` },
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Takes from `user`'s bucket until it refuses: how many it gave. */
async function drain(user: string): Promise<number> {
  let given = 0;
  while ((await take(user)) === 0) given++;
  return given;
}

const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const week = (fromMs: number, toMs: number) => `/eventDates/${at(fromMs)}/${at(toMs)}`;

describe("the gateway's cache and a trader's budget", () => {
  it('with the bucket empty, a read colleagues made is refused exactly like one nobody made', async () => {
    // alice opens some events; mallory then guesses, with his bucket used up.
    const opened = ['/categories', week(NOW - DAY, NOW + DAY)];
    for (const path of opened) expect((await get(path, 'alice')).status).toBe(200);
    const notOpened = ['/marketImpact/assets', week(NOW - 2 * DAY, NOW + 3 * DAY)];
    expect(await drain('mallory')).toBe(UPSTREAM_READS_BURST);
    const answers = [];
    for (const path of [...opened, ...notOpened]) {
      const r = await get(path, 'mallory');
      answers.push({ status: r.status, retryAfter: r.headers['retry-after'], text: r.text });
    }
    expect(answers.map((a) => a.status)).toEqual([429, 429, 429, 429]);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  it('a hit costs the trader a fraction of a read of the service', async () => {
    const path = week(NOW - 3 * DAY, NOW + 3 * DAY);
    expect((await get(path, 'alice')).status).toBe(200);
    const hits = 1 / HIT_COST;
    for (let i = 0; i < hits; i++) expect((await get(path, 'bob')).status).toBe(200);
    // bob read nothing from the service: his hits used one token of the burst, exactly.
    expect(await drain('bob')).toBe(UPSTREAM_READS_BURST - 1);
    // and with less than a whole token left, a hit is refused too.
    expect((await get(path, 'bob')).status).toBe(429);
    // A kept answer of megabytes costs as much as a read of the service.
    expect([hitCost(2_000), hitCost(6_400_000)]).toEqual([HIT_COST, MISS_COST]);
  });

  it('a kept window is served cut, without parsing its body again', async () => {
    // The demo schedule of these days (whatever the date: three weeks hold releases).
    const today = Math.floor(Date.now() / DAY) * DAY;
    const all = await get(week(today - 10 * DAY, today + 10 * DAY), 'carol');
    expect(all.status).toBe(200);
    const times = (JSON.parse(all.text) as { dateUtc: string }[]).map((d) => Date.parse(d.dateUtc));
    // The window from the first date to the last (release times are whole minutes), then
    // the same window a millisecond in at both ends: one rounded read, the ends cut off.
    const first = Math.min(...times);
    const last = Math.max(...times);
    expect([first % 60_000, last % 60_000, times.length > 4]).toEqual([0, 0, true]);
    const whole = await get(week(first, last), 'carol');
    expect(whole.status).toBe(200);
    const dates = JSON.parse(whole.text) as { dateUtc: string }[];
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const cut = await get(week(first + 1, last - 1), 'carol');
      expect(parse).not.toHaveBeenCalled();
      expect(cut.status).toBe(200);
      parse.mockRestore();
      const inside = dates.filter((d) => ![first, last].includes(Date.parse(d.dateUtc)));
      expect(inside.length).toBeLessThan(dates.length);
      expect(JSON.parse(cut.text)).toEqual(inside);
      // Its tag answers If-None-Match, still without a parse.
      const again = vi.spyOn(JSON, 'parse');
      const res = await request(`${url}/service/calendar/en/api/v1${week(first + 1, last - 1)}`, {
        headers: { authorization: 'Bearer carol', 'if-none-match': String(cut.headers.etag) },
      });
      await res.body.dump();
      expect(res.statusCode).toBe(304);
      expect(again).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('logs refused paths up to a limit a minute, then how many went unlogged', async () => {
    const refused = (user: string) =>
      request(`${url}/service/calendar/en/api/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user}` },
      }).then(async (r) => (await r.body.dump(), r.statusCode));
    const audits = (kind: string) => logLines.filter((l) => l.audit === kind);
    const flood = 500;
    for (let i = 0; i < flood; i += 50)
      expect(
        new Set(await Promise.all(Array.from({ length: 50 }, () => refused('mallory')))),
      ).toEqual(new Set([404]));
    expect(audits('gateway_refused')).toHaveLength(REFUSALS_LOGGED_PER_WINDOW);
    expect(audits('gateway_refused_unlogged')).toHaveLength(0);
    // A minute on, the next refusal is logged, after one line counting the others.
    clock += REFUSAL_WINDOW_MS;
    expect(await refused('mallory')).toBe(404);
    expect(audits('gateway_refused')).toHaveLength(REFUSALS_LOGGED_PER_WINDOW + 1);
    expect(audits('gateway_refused_unlogged').map((l) => l.count)).toEqual([
      flood - REFUSALS_LOGGED_PER_WINDOW,
    ]);
  });
});
