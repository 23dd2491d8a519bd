/**
 * The Redis backend's benchmarks (issue #15): durable ingest on Redis beside the SQLite
 * relay and a bare 204 server in one run, and fan-out of one burst to N subscribers split
 * over 1, 2 or 3 relay nodes sharing one Redis.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { startBareProc, startRelayProc, RELAY_SECRET, type Proc } from './procs.js';
import { startRedisProc } from './redis-proc.js';
import { runFanout, type FanoutSize } from './relay-bench.js';
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

/** One burst to subscribers (1,000 by default) split evenly over `nodes` relay nodes on one Redis. */
export async function benchFanoutNodes(
  quick: boolean,
  nodes: number,
  nodeArgs?: string[],
  size?: FanoutSize,
) {
  const redis = await startRedisProc();
  const relays: Proc[] = [];
  try {
    for (let i = 0; i < nodes; i++)
      relays.push(await startRelayProc(tmp('mb-bench-fan-'), { redisUrl: redis.url, nodeArgs }));
    return await runFanout(quick, relays, undefined, size);
  } finally {
    await Promise.all(relays.map((r) => r.stopAndWait()));
    await redis.stop();
  }
}

/** The subscriber counts and node counts of `npm run bench -- --scale`. */
export const SCALE_SUBSCRIBERS = [1000, 2000, 5000, 10_000];
export const SCALE_NODES = [1, 3];

/**
 * The fan-out curve: one burst of 1,000 webhooks to each subscriber count on each node
 * count (fresh Redis and relays per point), one subscriber process per 1,000 subscribers.
 */
export async function benchFanoutScale(
  sizes = SCALE_SUBSCRIBERS,
  nodeCounts = SCALE_NODES,
  onPoint: (p: Awaited<ReturnType<typeof benchFanoutNodes>>) => void = () => undefined,
) {
  const points: Awaited<ReturnType<typeof benchFanoutNodes>>[] = [];
  for (const nodes of nodeCounts)
    for (const subscribers of sizes) {
      const p = await benchFanoutNodes(false, nodes, undefined, { subscribers, burst: 1000 });
      points.push(p);
      onPoint(p);
    }
  return points;
}
