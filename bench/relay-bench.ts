/** Relay durable ingest (vs a bare 204 server) and SSE fan-out latency. */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import Database from 'better-sqlite3';
import type { summarize } from './lib.js';
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

/** User + system CPU time of a process, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Commits the relay has made (its /metrics summary count; it keeps the recent 500–1000). */
async function commitCount(url: string): Promise<number> {
  const res = await request(`${url}/metrics`);
  const text = await res.body.text();
  return Number(/^macrobell_relay_commit_latency_seconds_count (\d+)$/m.exec(text)?.[1] ?? NaN);
}

interface SubscriberResult {
  type: 'result';
  delivered: number;
  expected: number;
  complete: number;
  duplicates: number;
  malformed: number;
  cpuMs: number;
  latency: ReturnType<typeof summarize>;
}

/**
 * Fan-out: `subscribers` SSE streams held by a separate child process
 * (bench/sse-subscribers.ts, a lean byte parser), a burst of webhooks POSTed by this
 * process (64 concurrent undici senders) to the relay child. Each body carries its send
 * time (`performance.timeOrigin + performance.now()`, µs); the subscriber process takes
 * its receive time on the same clock, so latency = receive − send per (subscriber, event).
 * The two clocks' offset is bounded by IPC round trips and reported.
 */
export async function benchFanout(
  quick: boolean,
  opts: { relayNodeArgs?: string[]; subscriberNodeArgs?: string[] } = {},
) {
  const subscribers = quick ? 100 : 1000;
  const burst = quick ? 200 : 1000;
  const timeoutMs = 60_000;
  const relay = await startRelayProc(mkdtempSync(join(tmpdir(), 'mb-bench-fanout-')), {
    nodeArgs: opts.relayNodeArgs,
  });
  const child = fork(
    'bench/sse-subscribers.ts',
    [`${relay.url}/events`, RELAY_TOKEN, String(subscribers), String(burst), String(timeoutMs)],
    {
      execArgv: [...(opts.subscriberNodeArgs ?? []), '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const messages: { type: string; [k: string]: unknown }[] = [];
  const waiters: (() => void)[] = [];
  child.on('message', (m: { type: string }) => {
    messages.push(m);
    waiters.splice(0).forEach((w) => w());
  });
  child.on('exit', () => waiters.splice(0).forEach((w) => w()));
  const next = async <T>(type: string, ms: number): Promise<T> => {
    const deadline = Date.now() + ms;
    for (let guard = 0; guard < 100_000 && Date.now() < deadline; guard++) {
      const i = messages.findIndex((m) => m.type === type);
      if (i >= 0) return messages.splice(i, 1)[0] as T;
      if (child.exitCode !== null) break;
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
    throw new Error(`the subscriber process sent no ${type} message`);
  };
  const sender = new Agent({ connections: 64 });
  const post = async (body: string) => {
    const res = await request(`${relay.url}/hooks/${RELAY_SECRET}`, {
      method: 'POST',
      dispatcher: sender,
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.body.dump();
    if (res.statusCode !== 204) throw new Error(`the relay answered ${res.statusCode}`);
  };
  const clock = () => performance.timeOrigin + performance.now();
  try {
    await next('ready', 60_000);
    // Clock offset (subscriber − sender), bounded by the tightest of a few round trips.
    let offset = { low: -Infinity, high: Infinity };
    for (let k = 0; k < 20; k++) {
      const t0 = clock();
      child.send({ type: 'clock' });
      const { now } = await next<{ now: number }>('clock', 5_000);
      const t1 = clock();
      if (now - t0 - (now - t1) < offset.high - offset.low)
        offset = { low: now - t1, high: now - t0 };
    }
    // Warm-up: webhooks of another type, which the subscribers' parser does not count.
    for (let i = 0; i < 200; i += 50)
      await Promise.all(Array.from({ length: 50 }, () => post('{"type":"warmup"}')));
    await new Promise((r) => setTimeout(r, 300));
    const commits0 = await commitCount(relay.url);
    const cpu0 = cpuMs(relay.child.pid);
    const senderCpu0 = process.cpuUsage();
    child.send({ type: 'start' });
    let n = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (n < burst) {
          const i = n++;
          const t = Math.round(clock() * 1000);
          await post(`{"type":"post_created","n":${i},"t":${t}}`);
        }
      }),
    );
    const r = await next<SubscriberResult>('result', timeoutMs + 10_000);
    const relayCpuMs = cpuMs(relay.child.pid) - cpu0;
    const senderCpu = process.cpuUsage(senderCpu0);
    const commitBatches = (await commitCount(relay.url)) - commits0;
    return {
      subscribers,
      burst,
      delivered: r.delivered,
      expected: r.expected,
      latency: r.latency,
      duplicates: r.duplicates,
      malformed: r.malformed,
      clockOffsetMs: offset,
      /** Group commits (= fan-out writes per subscriber) for the burst. */
      commitBatches,
      /** CPU time of the relay process from the burst's start to the last delivery. */
      relayCpuMs,
      /** The same for the subscriber process (parsing) and this process (the senders). */
      subscriberCpuMs: r.cpuMs,
      senderCpuMs: (senderCpu.user + senderCpu.system) / 1000,
      method:
        'subscribers in a child process (lean byte parser), senders: 64 undici connections in the bench process',
    };
  } finally {
    // It exits by itself after its result; a stuck one is killed.
    if (child.exitCode === null && child.signalCode === null)
      await new Promise<void>((r) => {
        const kill = setTimeout(() => (child.kill('SIGKILL'), r()), 3_000);
        child.once('exit', () => (clearTimeout(kill), r()));
        if (child.connected) child.disconnect();
      });
    await relay.stopAndWait();
    await sender.close();
  }
}
