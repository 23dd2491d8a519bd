/**
 * The Redis backend's benchmarks (issue #15): durable ingest on Redis beside the SQLite
 * relay and a bare 204 server in one run, and fan-out of one burst to N subscribers split
 * over 1, 2 or 3 relay nodes sharing one Redis.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { startBareProc, startRelayProc, RELAY_SECRET, RELAY_TOKEN, type Proc } from './procs.js';
import { startRedisProc } from './redis-proc.js';
import { cpuMs, ipcChild, type SubscriberResult } from './relay-bench.js';
import { findWrk, runWrk, type WrkResult } from './wrk.js';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN;
};
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

/** wrk -t1 -c64 against the SQLite relay, the Redis relay and bare 204, rounds alternating. */
export async function benchIngestBackends(quick: boolean) {
  findWrk();
  const seconds = quick ? 2 : 5;
  const rounds = quick ? 1 : 3;
  const redis = await startRedisProc();
  const procs: Proc[] = [];
  try {
    const sqlite = await startRelayProc(tmp('mb-bench-sq-'));
    procs.push(sqlite);
    const onRedis = await startRelayProc(tmp('mb-bench-rd-'), { redisUrl: redis.url });
    procs.push(onRedis);
    const bare = await startBareProc();
    procs.push(bare);
    const targets = {
      sqlite: `${sqlite.url}/hooks/${RELAY_SECRET}`,
      redis: `${onRedis.url}/hooks/${RELAY_SECRET}`,
      bare: bare.url,
    };
    const load = (url: string, s: number) =>
      runWrk({ url, seconds: s, connections: 64, threads: 1 });
    let redisAcked = (await load(targets.redis, 1)).ok;
    await load(targets.sqlite, 1);
    await load(targets.bare, 1);
    const out = { sqlite: [] as WrkResult[], redis: [] as WrkResult[], bare: [] as WrkResult[] };
    for (let r = 0; r < rounds; r++) {
      out.sqlite.push(await load(targets.sqlite, seconds));
      const d = await load(targets.redis, seconds);
      redisAcked += d.ok;
      out.redis.push(d);
      out.bare.push(await load(targets.bare, seconds));
    }
    const client = new Redis(redis.url);
    const stored = await client.xlen('macrobell:{relay}:events');
    client.disconnect();
    if (stored < redisAcked)
      throw new Error(`the Redis relay acknowledged ${redisAcked} webhooks but stored ${stored}`);
    const perSec = (xs: WrkResult[]) => median(xs.map((x) => x.okPerSec));
    return {
      sqlitePerSec: perSec(out.sqlite),
      redisPerSec: perSec(out.redis),
      barePerSec: perSec(out.bare),
      redisFailures: out.redis.reduce((a, x) => a + x.non2xx, 0),
      redisAcked,
      redisStored: stored,
      method: `wrk -t1 -c64, ${rounds} × ${seconds} s per server, alternating; median; Redis with appendfsync always`,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stopAndWait()));
    await redis.stop();
  }
}

/** One burst to `subscribers` streams split evenly over `nodes` relay nodes on one Redis. */
export async function benchFanoutNodes(quick: boolean, nodes: number, nodeArgs?: string[]) {
  const subscribers = quick ? 99 : 1000;
  const burst = quick ? 200 : 1000;
  const timeoutMs = 60_000;
  const redis = await startRedisProc();
  const relays: Proc[] = [];
  const children: ReturnType<typeof ipcChild>[] = [];
  try {
    for (let i = 0; i < nodes; i++)
      relays.push(await startRelayProc(tmp('mb-bench-fan-'), { redisUrl: redis.url, nodeArgs }));
    const share = (i: number) =>
      Math.floor(subscribers / nodes) + (i < subscribers % nodes ? 1 : 0);
    const subs = relays.map((r, i) =>
      ipcChild('bench/sse-subscribers.ts', [
        `${r.url}/events`,
        RELAY_TOKEN,
        String(share(i)),
        String(burst),
        String(timeoutMs),
      ]),
    );
    children.push(...subs);
    for (const s of subs) await s.next('ready', 60_000);
    const sender = ipcChild('bench/burst-sender.ts', [
      `${(relays[0] as Proc).url}/hooks/${RELAY_SECRET}`,
      String(burst),
      '64',
    ]);
    children.push(sender);
    await sender.next('ready', 30_000);
    const cpu0 = relays.map((r) => cpuMs(r.child.pid));
    for (const s of subs) s.child.send({ type: 'start' });
    sender.child.send({ type: 'start' });
    await sender.next('sent', timeoutMs);
    const results = await Promise.all(
      subs.map((s) => s.next<SubscriberResult>('result', timeoutMs + 10_000)),
    );
    const relayCpuMs = relays.reduce((a, r, i) => a + cpuMs(r.child.pid) - (cpu0[i] as number), 0);
    const delivered = results.reduce((a, r) => a + r.delivered, 0);
    return {
      nodes,
      subscribers,
      burst,
      delivered,
      expected: results.reduce((a, r) => a + r.expected, 0),
      duplicates: results.reduce((a, r) => a + r.duplicates, 0),
      /** The worst node's p99 (per-node summaries cannot be merged exactly). */
      p99: Math.max(...results.map((r) => r.latency.p99)),
      p50: median(results.map((r) => r.latency.p50)),
      relayCpuUsPerFrame: (relayCpuMs * 1000) / Math.max(1, delivered),
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await Promise.all(relays.map((r) => r.stopAndWait()));
    await redis.stop();
  }
}
