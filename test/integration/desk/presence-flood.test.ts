/**
 * Issue #35, item 1: one trader token cannot take the desk down with fake desktops. Each
 * `GET /events` with a new x-macrobell-desktop used to add a presence row without limit
 * (kept a week on Redis), and every admin snapshot read up to 1,001 events with their
 * bodies per row: 2,000 fake desktops stalled webhook ingest for up to a minute and grew
 * the relay to 1.8 GB. Now a trader has at most MAX_DESKTOPS_PER_USER desktops seen in
 * the last minutes and MAX streams open across the desk (every node of a Redis desk), a
 * row expires in minutes, and a row's lag is judged from the log's positions in memory.
 */
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import Redis from 'ioredis';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { LogPositions } from '../../../src/relay/desk-ops/replay/log-positions.js';
import { LAG_COUNT_CAP, traderRows } from '../../../src/relay/desk-ops/admin/admin-view.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import {
  MAX_DESKTOPS_PER_USER,
  MemoryPresenceStore,
  PRESENCE_KEEP_MS,
} from '../../../src/relay/desk-ops/presence/presence-store.js';
import type { EventLog } from '../../../src/relay/log/event-log.js';
import { exited, post, spawnRelay, tempDir, waitFor, type RelayProcess } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';
import { relayCommand } from './processes.js';

const FAKE_DESKTOPS = 2_000;
const SECRET = 'flood-secret';
const env = { MACROBELL_RELAY_SECRET: SECRET, MACROBELL_RELAY_TOKEN: '', LOG_LEVEL: 'warn' };

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1]) / 1024;
}

async function spawnNode(args: string[]): Promise<RelayProcess> {
  const relay = await spawnRelay(['--port', '0', ...args], env);
  cleanups.push(async () => {
    relay.child.kill('SIGKILL');
    await exited(relay.child);
  });
  return relay;
}

/** The last stdout line of a `relay` command that prints a new token. */
async function newToken(args: string[]): Promise<string> {
  const r = await relayCommand(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trimEnd().split('\n').at(-1) as string;
}

/** Opens `GET /events` as desktop `desktop`; resolves with the status, the stream closed at once. */
function openAs(url: string, token: string, desktop: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (desktop) Object.assign(headers, { 'x-macrobell-desktop': desktop });
    const req = httpRequest(`${url}/events`, { headers, agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

/** 2,000 desktops named at random, 25 at a time, spread over the nodes given. */
async function flood(urls: string[], token: string): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (let i = 0; i < FAKE_DESKTOPS; i += 25) {
    const batch = Array.from({ length: 25 }, (_, k) =>
      openAs(urls[(i + k) % urls.length] as string, token, `fake-desktop-${i + k}-x`),
    );
    for (const s of await Promise.all(batch)) statuses.set(s, (statuses.get(s) ?? 0) + 1);
  }
  return statuses;
}

/** Webhooks posted one after another until `done`; their statuses. */
async function ingestWhile(url: string, done: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; !done() || n === 0; n++)
    statuses.push((await post(`${url}/hooks/${SECRET}`, JSON.stringify({ type: 't', n }))).status);
  return statuses;
}

async function snapshot(url: string, admin: string): Promise<AdminSnapshot> {
  const res = await request(`${url}/admin`, {
    headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
  });
  expect(res.statusCode).toBe(200);
  return (await res.body.json()) as AdminSnapshot;
}

describe('2,000 fake desktops from one trader token', () => {
  it('on a SQLite relay: at most the cap are recorded, ingest keeps answering, memory stays small', async () => {
    const data = tempDir('mb-flood-');
    const mallory = await newToken(['users', 'add', 'mallory', '--data', data]);
    const admin = await newToken(['admins', 'add', 'lead', '--data', data]);
    const relay = await spawnNode(['--data', data]);
    for (let n = 0; n < 1_100; n += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          post(`${relay.url}/hooks/${SECRET}`, JSON.stringify({ type: 'pad', n: n + k })),
        ),
      );
    let attacking = true;
    const ingest = ingestWhile(relay.url, () => !attacking);
    const pid = relay.child.pid as number;
    let peak = rssMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
    const statuses = await flood([relay.url], mallory);
    const snap = await snapshot(relay.url, admin);
    attacking = false;
    clearInterval(sampler);
    const webhooks = await ingest;

    expect(statuses.get(200) ?? 0).toBeLessThanOrEqual(MAX_DESKTOPS_PER_USER);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(FAKE_DESKTOPS - MAX_DESKTOPS_PER_USER);
    const row = snap.traders.find((t) => t.user === 'mallory');
    expect(row?.desktops.length).toBeLessThanOrEqual(MAX_DESKTOPS_PER_USER);
    // Never applied anything: behind the whole log, counted to the cap from positions.
    expect(row?.desktops.every((d) => d.lagCapped && d.lagEvents === LAG_COUNT_CAP)).toBe(true);
    expect(webhooks.every((s) => s === 204)).toBe(true);
    expect(peak).toBeLessThan(300);
  }, 180_000);

  it('on two Redis nodes: the caps hold across the desk and the rows expire in minutes', async () => {
    const redis: TestRedis = await startRedis();
    cleanups.push(() => redis.stop());
    const data = tempDir('mb-flood-redis-');
    const mallory = await newToken(['users', 'add', 'mallory', '--redis', redis.url]);
    const admin = await newToken(['admins', 'add', 'lead', '--redis', redis.url]);
    const a = await spawnNode(['--data', data, '--redis', redis.url]);
    const b = await spawnNode(['--data', data, '--redis', redis.url]);

    let attacking = true;
    const ingest = ingestWhile(a.url, () => !attacking);
    const statuses = await flood([a.url, b.url], mallory);
    const snap = await snapshot(b.url, admin);
    attacking = false;
    const webhooks = await ingest;

    expect(statuses.get(200) ?? 0).toBeLessThanOrEqual(MAX_DESKTOPS_PER_USER);
    expect(snap.traders.find((t) => t.user === 'mallory')?.desktops.length).toBeLessThanOrEqual(
      MAX_DESKTOPS_PER_USER,
    );
    expect(webhooks.every((s) => s === 204)).toBe(true);
    for (const pid of [a.child.pid, b.child.pid]) expect(rssMb(pid as number)).toBeLessThan(300);
    // Lag from the positions node b learned from the stream (the webhooks went to node a):
    // none applied, so each desktop is behind by every webhook, counted exactly.
    await waitFor(async () => {
      const rows = (await snapshot(b.url, admin)).traders.find((t) => t.user === 'mallory');
      return rows?.desktops.every((d) => d.lagEvents === webhooks.length && !d.lagCapped);
    }, "node b's lag of every webhook node a stored");

    // What Redis keeps: the capped rows, each expiring within PRESENCE_KEEP_MS.
    const r = new Redis(redis.url);
    cleanups.push(() => r.quit());
    const rows = await r.keys('macrobell:{relay}:presence:mallory:*');
    expect(rows.length).toBeLessThanOrEqual(MAX_DESKTOPS_PER_USER);
    for (const key of rows) {
      const ttl = await r.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(PRESENCE_KEEP_MS / 1000);
    }

    // Streams: five per trader on the desk, not per node — the sixth is refused on either.
    const held: (() => void)[] = [];
    cleanups.push(() => held.forEach((close) => close()));
    const open = (url: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${url}/events`,
          { headers: { authorization: `Bearer ${mallory}` }, agent: false },
          (res) => {
            held.push(() => req.destroy());
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await open(i % 2 ? b.url : a.url));
    expect(first).toEqual([200, 200, 200, 200, 200]);
    expect(await open(a.url)).toBe(429);
    expect(await open(b.url)).toBe(429);
  }, 180_000);
});

describe("a desktop row's cost", () => {
  it('judges lag from positions: no read of the log per row, whatever each row claims', async () => {
    let now = Date.parse('2026-11-20T09:00:00Z');
    const db = openRelayDatabase(tempDir('mb-positions-'));
    const log = new SqliteEventLog(db, () => now);
    cleanups.push(() => log.close());
    const ids: string[] = [];
    for (let i = 0; i < 1_500; i++) {
      now += 1_000;
      ids.push(await log.append(Buffer.from(`{"n":${i}}`), 't', {}));
    }
    const positions = new LogPositions(log, LAG_COUNT_CAP);
    await positions.seed(log);
    cleanups.push(() => positions.close());
    now += 1_000;
    ids.push(await log.append(Buffer.from('{"n":"last"}'), 't', {}));
    now += 1_000;

    let reads = 0;
    const counted = new Proxy(log, {
      get(target, prop, receiver) {
        if (prop === 'after') reads++;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    }) as EventLog;
    const presence = new MemoryPresenceStore(() => now);
    const applied = [null, ids[1_400], ids[1_499], ids.at(-1), ids[10], '1-5'] as const;
    for (const [i, id] of applied.entries()) {
      const desktop = `desktop-${i}-abc`;
      expect(
        await presence.opened(
          { user: 'ana', desktop, appVersion: '1', os: 'x', node: 'n' },
          'c',
          now,
        ),
      ).toBe(true);
      if (id) await presence.ack('ana', desktop, id, now);
    }
    const rows = await traderRows({
      events: counted,
      positions,
      users: { list: async () => [] },
      presence,
      watchlist: async () => [],
      releases: async () => [],
      log: async () => ({ events: [], truncated: false }),
      lagThresholdSeconds: 60,
      now: () => now,
    });
    expect(reads).toBe(0);
    const lag = Object.fromEntries(
      (rows[0]?.desktops ?? []).map((d) => [d.desktop, [d.lagEvents, d.lagCapped, d.lagSeconds]]),
    );
    expect(lag).toEqual({
      'desktop-0-abc': [LAG_COUNT_CAP, true, expect.any(Number)],
      'desktop-1-abc': [100, false, 100],
      'desktop-2-abc': [1, false, 1],
      'desktop-3-abc': [0, false, 0],
      'desktop-4-abc': [LAG_COUNT_CAP, true, expect.any(Number)],
      // An id of another log's form orders before every integer id here.
      'desktop-5-abc': [LAG_COUNT_CAP, true, expect.any(Number)],
    });
    // Far behind: at least as far as the positions kept reach.
    expect(lag['desktop-4-abc']?.[2]).toBeGreaterThanOrEqual(LAG_COUNT_CAP);
  });

  it('forgets a desktop unheard for PRESENCE_KEEP_MS, and then lets a new one in', async () => {
    let now = 1_000_000;
    const presence = new MemoryPresenceStore(() => now, 2);
    const who = (desktop: string) => ({
      user: 'ana',
      desktop,
      appVersion: '1',
      os: 'x',
      node: 'n',
    });
    expect(await presence.opened(who('one-desktop'), 'c1', now)).toBe(true);
    expect(await presence.opened(who('two-desktop'), 'c2', now)).toBe(true);
    expect(await presence.opened(who('three-desktop'), 'c3', now)).toBe(false);
    expect(await presence.opened(who('one-desktop'), 'c4', now)).toBe(true); // a known one
    now += PRESENCE_KEEP_MS;
    expect(await presence.opened(who('three-desktop'), 'c5', now)).toBe(true);
    expect((await presence.list()).map((p) => p.desktop)).toEqual(['three-desktop']);
  });
});
