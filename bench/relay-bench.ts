/** Relay durable ingest (vs a bare 204 server) and SSE fan-out latency. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import Database from 'better-sqlite3';
import { nowMs, summarize } from './lib.js';
import { RELAY_SECRET, RELAY_TOKEN, startBareProc, startRelayProc } from './procs.js';
import { findWrk, runWrk, type WrkResult } from './wrk.js';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : NaN;
};

/**
 * Relay durable ingest vs a bare 204 server, both driven by `wrk -t1 -c64` with a Lua
 * script whose bodies differ per request. Rounds alternate relay and bare so a busy
 * neighbour on the shared machine hits both alike; the figures are the medians over rounds.
 * Afterwards the relay's SQLite file must hold at least every acknowledged webhook.
 * `MB_BENCH_PIN=1` pins wrk to CPU 0 and each server to CPU 1 (one core each).
 */
export async function benchIngest(
  quick: boolean,
  opts: { pin?: boolean; nodeArgs?: string[] } = {},
) {
  findWrk(); // fails with "wrk not found: apt-get install wrk"
  const seconds = quick ? 2 : 5;
  const rounds = quick ? 1 : 3;
  const pin = opts.pin ?? process.env.MB_BENCH_PIN === '1';
  const serverCpu = pin ? { cpus: '1' } : {};
  const wrkCpu = pin ? '0' : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-bench-ingest-'));
  const relay = await startRelayProc(dataDir, { ...serverCpu, nodeArgs: opts.nodeArgs });
  const bare = await startBareProc(serverCpu);
  const relayUrl = `${relay.url}/hooks/${RELAY_SECRET}`;
  const load = (url: string, s: number) =>
    runWrk({ url, seconds: s, connections: 64, threads: 1, cpus: wrkCpu });
  let stoppedRelay = false;
  try {
    let relayAcked = 0;
    // Warm-up (JIT, SQLite page cache, connection setup); counted for the storage check.
    relayAcked += (await load(relayUrl, 1)).ok;
    await load(bare.url, 1);
    const durable: WrkResult[] = [];
    const baseline: WrkResult[] = [];
    for (let r = 0; r < rounds; r++) {
      const d = await load(relayUrl, seconds);
      relayAcked += d.ok;
      durable.push(d);
      baseline.push(await load(bare.url, seconds));
    }
    await relay.stopAndWait();
    stoppedRelay = true;
    const db = new Database(join(dataDir, 'relay.db'), { readonly: true });
    const stored = db
      .prepare('SELECT count(*) AS n, count(DISTINCT body) AS d FROM events')
      .get() as {
      n: number;
      d: number;
    };
    db.close();
    // wrk may stop with up to 64 requests in flight: those can be stored yet unacknowledged.
    if (stored.n < relayAcked)
      throw new Error(`the relay acknowledged ${relayAcked} webhooks but stored ${stored.n}`);
    const durablePerSec = median(durable.map((x) => x.okPerSec));
    const barePerSec = median(baseline.map((x) => x.okPerSec));
    const failures = durable.reduce(
      (a, x) => a + x.non2xx + x.errors.connect + x.errors.read + x.errors.write + x.errors.timeout,
      0,
    );
    return {
      count: durable.reduce((a, x) => a + x.ok, 0),
      durablePerSec,
      barePerSec,
      failures,
      method: `wrk -t1 -c64, ${rounds} × ${seconds} s per server, alternating; median${pin ? '; wrk on CPU 0, server on CPU 1' : ''}`,
      rounds: durable.map((d, i) => ({
        durablePerSec: d.okPerSec,
        barePerSec: (baseline[i] as WrkResult).okPerSec,
        durableLatencyMs: d.latencyMs,
        bareLatencyMs: (baseline[i] as WrkResult).latencyMs,
      })),
      storedRows: stored.n,
      distinctBodies: stored.d,
      acknowledged: relayAcked,
    };
  } finally {
    if (!stoppedRelay) relay.stop();
    await bare.stopAndWait();
  }
}

export async function benchFanout(quick: boolean) {
  const subscribers = quick ? 100 : 1000;
  const burst = quick ? 200 : 1000;
  const relay = await startRelayProc(mkdtempSync(join(tmpdir(), 'mb-bench-fanout-')));
  const agent = new Agent({ connections: subscribers + 10, pipelining: 0 });
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let received = 0;
  const streams: { destroy(): void }[] = [];
  try {
    await Promise.all(
      Array.from({ length: subscribers }, async () => {
        const res = await request(`${relay.url}/events`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${RELAY_TOKEN}` },
          bodyTimeout: 0,
        });
        streams.push(res.body);
        let buf = '';
        res.body.on('data', (chunk: Buffer) => {
          buf += chunk.toString('utf8');
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const m = /"n":(\d+)/.exec(frame);
            if (!m) continue;
            const t0 = sentAt.get(Number(m[1]));
            if (t0 !== undefined) latencies.push(nowMs() - t0);
            received++;
          }
        });
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const sender = new Agent({ connections: 64 });
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < burst) {
          const n = next++;
          sentAt.set(n, nowMs());
          const res = await request(`${relay.url}/hooks/${RELAY_SECRET}`, {
            method: 'POST',
            dispatcher: sender,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'post_created', n }),
          });
          await res.body.dump();
        }
      }),
    );
    const deadline = Date.now() + 60_000;
    while (received < subscribers * burst && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await sender.close();
    return {
      subscribers,
      burst,
      delivered: received,
      expected: subscribers * burst,
      latency: summarize(latencies),
    };
  } finally {
    streams.forEach((s) => s.destroy());
    relay.stop();
    await agent.destroy();
  }
}
