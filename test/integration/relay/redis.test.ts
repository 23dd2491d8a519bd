/**
 * The relay on Redis Streams (issue #15): durability promised or refused, the HA pair's
 * two copies stored once, any node serving any reader, 503 while Redis is away and
 * recovery by itself, and no acknowledged webhook lost to a kill -9 of Redis or a node.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisEventLog } from '../../../src/relay/log/redis-log.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import {
  SECRET,
  TOKEN,
  exited,
  openSseReader,
  pageAll,
  post,
  spawnRelay,
  tempDir,
  waitFor,
  type RelayProcess,
} from './helpers.js';
import { startRedis, type TestRedis } from './redis-server.js';

const auth = { authorization: `Bearer ${TOKEN}` };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function redis(opts?: { durable?: boolean }): Promise<TestRedis> {
  const r = await startRedis(opts);
  cleanups.push(() => r.stop());
  return r;
}

async function node(url: string, durability?: 'relaxed'): Promise<RunningRelay> {
  const relay = await startRelay({
    dataDir: tempDir(),
    secret: SECRET,
    token: TOKEN,
    redis: { url, durability },
  });
  cleanups.push(() => relay.close());
  return relay;
}

async function health(url: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await request(`${url}/healthz`);
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

const ns = (frames: { event: string; data: string }[]) =>
  frames
    .filter((f) => f.event === 'notification')
    .map((f) => (JSON.parse(f.data) as { n: number }).n);

describe('the data folder on Redis', () => {
  it('is made on a first start (0700) and keeps the store-generation marker', async () => {
    const r = await redis();
    const dataDir = join(tempDir(), 'new', 'relay-data');
    const relay = await startRelay({
      dataDir,
      secret: SECRET,
      token: TOKEN,
      redis: { url: r.url },
    });
    cleanups.push(() => relay.close());
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // a restarted node compares Redis with this file: without it a wiped store goes unseen
    expect(existsSync(join(dataDir, 'redis-store.json'))).toBe(true);
  });
});

describe('durability promise', () => {
  it('refuses a Redis without an fsynced AOF or replica, unless told relaxed, and says so', async () => {
    const r = await redis({ durable: false });
    await expect(node(r.url)).rejects.toThrow(/appendfsync always.*--redis-durability relaxed/s);
    const relaxed = await node(r.url, 'relaxed');
    expect(relaxed.durability).toMatch(/^relaxed/);
    const h = await health(relaxed.url);
    expect(h.status).toBe(200);
    expect(h.json).toMatchObject({ ok: true, backend: 'redis' });
    expect(String(h.json.durability)).toMatch(/relaxed .*can be lost/);
  });
});

describe('two nodes on one Redis', () => {
  it('stores the HA pair’s two copies once and serves the same ids from either node', async () => {
    const r = await redis();
    const a = await node(r.url);
    const b = await node(r.url);
    const onB = await openSseReader(`${b.url}/events`, { ...auth, 'last-event-id': '0' });
    cleanups.push(async () => onB.close());
    for (let n = 1; n <= 5; n++) {
      const body = JSON.stringify({ type: 'eventDate_updated', n });
      const [x, y] = await Promise.all([post(a.webhookUrl, body), post(b.webhookUrl, body)]);
      expect([x.status, y.status]).toEqual([204, 204]);
    }
    await waitFor(() => ns(onB.frames).length >= 5, 'five events on node B');
    const fromA = await pageAll(a.url);
    expect(fromA.map((e) => e.body.n)).toEqual([1, 2, 3, 4, 5]);
    expect(onB.frames.map((f) => f.id)).toEqual(fromA.map((e) => e.id));
    expect(fromA.every((e) => /^\d+-\d+$/.test(e.id))).toBe(true);
    // Resume on A with the id B gave: exactly what follows.
    const third = onB.frames[2]?.id as string;
    const onA = await openSseReader(`${a.url}/events`, { ...auth, 'last-event-id': third });
    cleanups.push(async () => onA.close());
    await waitFor(() => ns(onA.frames).length >= 2, 'the rest on node A');
    expect(ns(onA.frames)).toEqual([4, 5]);
    // A SQLite-era numeric id is from another log: reset, then everything retained.
    const old = await openSseReader(`${a.url}/events`, { ...auth, 'last-event-id': '41' });
    cleanups.push(async () => old.close());
    await waitFor(() => ns(old.frames).length >= 5, 'the replay after reset');
    expect(old.frames[0]?.event).toBe('reset');
  });

  it('stores appends made in one turn with one script call, a body twice in it once', async () => {
    const r = await redis();
    const log = await RedisEventLog.open({ url: r.url });
    cleanups.push(() => log.close());
    const body = (n: number) => Buffer.from(JSON.stringify({ type: 'eventDate_updated', n }));
    // All in one turn of the event loop: one batch, in which body 2 comes twice.
    const ids = await Promise.all([1, 2, 3, 2, 4].map((n) => log.append(body(n), 'x', {})));
    expect(ids[3]).toBe(ids[1]);
    expect(new Set(ids).size).toBe(4);
    expect([...ids].sort(byStreamId)).toEqual(
      [ids[0], ids[1], ids[2], ids[1], ids[4]].sort(byStreamId),
    );
    const latency = await log.commitLatency.get();
    expect(latency.values.find((v) => v.metricName?.endsWith('_count'))?.value).toBe(1);
    const stored = await log.after('0', 100);
    expect(stored.map((e) => JSON.parse(e.body.toString()).n)).toEqual([1, 2, 3, 4]);
    expect(stored.map((e) => e.id)).toEqual([ids[0], ids[1], ids[2], ids[4]]);
    // The same body again later (the HA pair's second copy, or a retry) gets the same id.
    expect(await log.append(body(3), 'x', {})).toBe(ids[2]);
    expect(await log.after('0', 100)).toHaveLength(4);
  });

  it('answers 503 while Redis is down, says why in /healthz, and recovers by itself', async () => {
    const r = await redis();
    const a = await node(r.url);
    expect((await post(a.webhookUrl, '{"type":"t","n":1}')).status).toBe(204);
    await r.kill('SIGKILL');
    await waitFor(async () => (await health(a.url)).status === 503, '/healthz to report it');
    const down = await health(a.url);
    // Plain words for an unauthenticated reader: no Redis address, no client-library text.
    expect(down.json.reason).toBe('the relay lost its connection to Redis and is reconnecting');
    const refusals = [];
    for (let i = 0; i < 6; i++) refusals.push(await post(a.webhookUrl, `{"type":"t","k":${i}}`));
    expect(refusals.map((x) => x.status)).toEqual(Array(6).fill(503));
    for (const refused of refusals) {
      expect(JSON.parse(refused.text)).toEqual({
        error: 'store_unavailable',
        message:
          'The relay cannot store webhooks now: the relay lost its connection to Redis and is reconnecting',
      });
      expect(refused.text).not.toContain(String(r.port));
    }
    // Every 503 counted.
    expect(await a.metrics()).toMatch(/^macrobell_relay_store_failures_total 6$/m);
    expect(await a.metrics()).toMatch(/^macrobell_relay_store_up\{backend="redis"\} 0$/m);
    await r.restart();
    await waitFor(async () => (await health(a.url)).status === 200, 'the node to reconnect');
    expect((await post(a.webhookUrl, '{"type":"t","n":2}')).status).toBe(204);
    expect((await pageAll(a.url)).map((e) => e.body.n)).toEqual([1, 2]);
  }, 60_000);
});

describe('durability after a reconnect', () => {
  it('refuses webhooks (503) when Redis comes back without the promised fsync, recovers by itself on a live fix', async () => {
    const r = await redis();
    const a = await node(r.url);
    const admin = new Redis(r.url);
    cleanups.push(async () => admin.disconnect());
    const reconnectNodes = () => admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    await admin.config('SET', 'appendfsync', 'everysec');
    await reconnectNodes();
    await waitFor(
      async () =>
        /not set up to keep stored webhooks safely/.test(String((await health(a.url)).json.reason)),
      'the node to report the weaker promise',
    );
    expect((await health(a.url)).status).toBe(503);
    expect((await post(a.webhookUrl, '{"type":"t"}')).status).toBe(503);
    // The operator fixes it live; no reconnect, no restart: ingest is back within seconds.
    await admin.config('SET', 'appendfsync', 'always');
    const fixedAt = Date.now();
    await waitFor(
      async () => (await post(a.webhookUrl, '{"type":"t2"}')).status === 204,
      'ingest to recover',
      10_000,
    );
    expect(Date.now() - fixedAt).toBeLessThan(5_000);
    expect((await health(a.url)).status).toBe(200);
  });
});

/** Posts numbered webhooks from many workers until stopped; returns the acked numbers. */
function burst(urls: string[], stopAfter: () => boolean) {
  const agent = new Agent({ connections: 32 });
  const acked = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (!stopAfter()) {
      const n = next++;
      const body = JSON.stringify({ type: 'post_created', n });
      // The service sends each notification to both webhook URLs: acked once either takes it.
      const results = await Promise.all(
        urls.map((u) =>
          request(u, { method: 'POST', body, dispatcher: agent })
            .then(async (res) => {
              await res.body.dump();
              return res.statusCode;
            })
            .catch(() => 0),
        ),
      );
      if (results.includes(204)) acked.add(n);
    }
  };
  const done = Promise.all(Array.from({ length: 16 }, worker)).then(() => agent.close());
  return { acked, done, sent: () => next };
}

describe('retention on Redis', () => {
  it('trims by age with XTRIM MINID, and a resume from before it gets reset', async () => {
    const r = await redis();
    let now = Date.now();
    const relay = await startRelay({
      dataDir: tempDir(),
      secret: SECRET,
      token: TOKEN,
      now: () => now,
      redis: { url: r.url },
    });
    cleanups.push(() => relay.close());
    for (let n = 1; n <= 3; n++)
      expect((await post(relay.webhookUrl, JSON.stringify({ type: 't', n }))).status).toBe(204);
    const before = await pageAll(relay.url);
    // A node whose clock runs a month ahead of Redis's trims nothing recent: the ids carry
    // Redis's time, and so does the cutoff.
    now += 30 * 86_400_000;
    expect(await relay.log.trim(7 * 86_400_000)).toBe(0);
    // By Redis's clock, older than a millisecond: all three (their ids are at least that old).
    let trimmed = 0;
    await waitFor(async () => (trimmed += await relay.log.trim(1)) === 3, 'the three trimmed');
    await new Promise((res) => setTimeout(res, 2)); // a later stream id than the trimmed ones
    expect((await post(relay.webhookUrl, JSON.stringify({ type: 't', n: 4 }))).status).toBe(204);
    const s = await openSseReader(`${relay.url}/events`, {
      ...auth,
      'last-event-id': before[0]?.id as string,
    });
    cleanups.push(async () => s.close());
    await waitFor(() => ns(s.frames).length >= 1, 'what is left');
    expect(s.frames[0]?.event).toBe('reset');
    expect(ns(s.frames)).toEqual([4]);
  });
});

describe('kill -9', () => {
  it('of redis-server (appendfsync always) mid-burst keeps every acknowledged webhook', async () => {
    const r = await redis();
    const a = await node(r.url);
    let stop = false;
    const b = burst([a.webhookUrl], () => stop);
    await waitFor(() => b.acked.size >= 300, '300 acks');
    await r.kill('SIGKILL');
    stop = true;
    await b.done;
    await r.restart();
    await waitFor(async () => (await health(a.url)).status === 200, 'the node to reconnect');
    const stored = new Set((await pageAll(a.url)).map((e) => e.body.n));
    expect([...b.acked].filter((n) => !stored.has(n))).toEqual([]);
  }, 60_000);

  it('of one relay node mid-burst: a subscriber fails over and gets every ack once, in order', async () => {
    const r = await redis();
    const data = tempDir();
    const env = { MACROBELL_RELAY_SECRET: SECRET, MACROBELL_RELAY_TOKEN: TOKEN };
    const start = (): Promise<RelayProcess> =>
      spawnRelay(['--port', '0', '--data', data, '--redis', r.url], env);
    const [p1, p2] = await Promise.all([start(), start()]);
    cleanups.push(async () => {
      for (const p of [p1, p2]) p.child.kill('SIGKILL');
      await Promise.all([exited(p1.child), exited(p2.child)]);
    });
    await waitFor(() => p1.stdout().includes('relay store:'), 'the store line');
    expect(p1.stdout()).toMatch(
      /relay store: redis 127\.0\.0\.1:\d+ \(durability: appendfsync always\)/,
    );
    // The subscriber reads from node 1, and on loss resumes on node 2 with its last id.
    const got: { id: string; n: number }[] = [];
    const follow = async (url: string, last: string) => {
      const s = await openSseReader(`${url}/events`, { ...auth, 'last-event-id': last });
      return s;
    };
    const first = await follow(p1.url, '0');
    let stop = false;
    const b = burst([`${p1.url}/hooks/${SECRET}`, `${p2.url}/hooks/${SECRET}`], () => stop);
    await waitFor(() => ns(first.frames).length >= 200, '200 events through node 1');
    p1.child.kill('SIGKILL');
    await waitFor(() => first.closed(), 'the subscriber to see node 1 go');
    for (const f of first.frames.filter((x) => x.event === 'notification'))
      got.push({ id: f.id as string, n: (JSON.parse(f.data) as { n: number }).n });
    const second = await follow(p2.url, got.at(-1)?.id ?? '0');
    cleanups.push(async () => second.close());
    await waitFor(() => b.acked.size >= 600, '600 acks');
    stop = true;
    await b.done;
    const total = (await pageAll(p2.url)).length;
    await waitFor(() => ns(second.frames).length + got.length >= total, 'the rest via node 2');
    for (const f of second.frames.filter((x) => x.event === 'notification'))
      got.push({ id: f.id as string, n: (JSON.parse(f.data) as { n: number }).n });
    const ns2 = got.map((g) => g.n);
    expect(new Set(ns2).size).toBe(ns2.length); // exactly once
    expect([...b.acked].filter((n) => !ns2.includes(n))).toEqual([]); // every ack
    const ids = got.map((g) => g.id);
    expect([...ids].sort(byStreamId)).toEqual(ids); // in stream order
  }, 90_000);
});

function byStreamId(x: string, y: string): number {
  const [xm, xs] = x.split('-').map(Number) as [number, number];
  const [ym, ys] = y.split('-').map(Number) as [number, number];
  return xm - ym || xs - ys;
}
