/** Relay durable ingest (vs a bare 204 server) and SSE fan-out latency. */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import Database from 'better-sqlite3';
import { histogramSummary, mergeHistograms, type summarize } from './lib.js';
import { RELAY_SECRET, RELAY_TOKEN, startBareProc, startRelayProc, type Proc } from './procs.js';
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
    // CPU time each server used per answered request (user + system, from /proc).
    const relayCpuUs: number[] = [];
    const bareCpuUs: number[] = [];
    const timed = async (p: Proc, url: string, into: number[]) => {
      const c0 = cpuMs(p.child.pid);
      const w = await load(url, seconds);
      into.push(((cpuMs(p.child.pid) - c0) * 1000) / Math.max(1, w.requests));
      return w;
    };
    const commits0 = (await relayCounts(relay.url)).commits;
    for (let r = 0; r < rounds; r++) {
      const d = await timed(relay, relayUrl, relayCpuUs);
      relayAcked += d.ok;
      durable.push(d);
      baseline.push(await timed(bare, bare.url, bareCpuUs));
    }
    const commits = (await relayCounts(relay.url)).commits - commits0;
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
      /** Server CPU (user + system) per answered request, µs: medians over the rounds. */
      relayCpuUsPerRequest: median(relayCpuUs),
      bareCpuUsPerRequest: median(bareCpuUs),
      /** Webhooks per group commit (one transaction and one WAL fsync each), measured rounds. */
      rowsPerCommit: durable.reduce((a, x) => a + x.requests, 0) / Math.max(1, commits),
      rounds: durable.map((d, i) => ({
        durablePerSec: d.okPerSec,
        barePerSec: (baseline[i] as WrkResult).okPerSec,
        relayCpuUsPerRequest: relayCpuUs[i],
        bareCpuUsPerRequest: bareCpuUs[i],
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
export function cpuMs(pid: number | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/**
 * From the relay's /metrics: commit batches made (its commit-latency histogram's count,
 * never reset while it runs) and fan-out rounds.
 */
export async function relayCounts(url: string): Promise<{ commits: number; rounds: number }> {
  const res = await request(`${url}/metrics`);
  const text = await res.body.text();
  const get = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    commits: get('macrobell_relay_commit_latency_seconds_count'),
    rounds: get('macrobell_relay_fanout_rounds_total'),
  };
}

export interface SubscriberResult {
  type: 'result';
  delivered: number;
  expected: number;
  complete: number;
  duplicates: number;
  malformed: number;
  cpuMs: number;
  latency: ReturnType<typeof summarize>;
  /** With several nodes: the same summary for the subscribers of each. */
  byNode?: ReturnType<typeof summarize>[];
  /** Latency histogram (lib.ts buckets), whole and per node. */
  histogram: number[];
  histogramByNode?: number[][];
}

/** A bench child with an IPC channel: typed waits for its messages, bounded in time. */
export function ipcChild(script: string, args: string[], nodeArgs: string[] = []) {
  const child = fork(script, args, {
    execArgv: [...nodeArgs, '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: { type: string }[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  child.on('message', (m: { type: string }) => {
    messages.push(m);
    wake();
  });
  child.on('exit', wake);
  const next = async <T>(type: string, ms: number): Promise<T> => {
    const deadline = Date.now() + ms;
    for (let guard = 0; guard < 100_000 && Date.now() < deadline; guard++) {
      const i = messages.findIndex((m) => m.type === type);
      if (i >= 0) return messages.splice(i, 1)[0] as T;
      if (child.exitCode !== null || child.signalCode !== null) break;
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
    throw new Error(`${script} sent no ${type} message`);
  };
  const clock = () => performance.timeOrigin + performance.now();
  /** The child's clock minus ours, bounded by the tightest of a few IPC round trips. */
  const clockOffset = async () => {
    let best = { low: -Infinity, high: Infinity };
    for (let k = 0; k < 20; k++) {
      const t0 = clock();
      child.send({ type: 'clock' });
      const { now } = await next<{ now: number }>('clock', 5_000);
      const t1 = clock();
      if (t1 - t0 < best.high - best.low) best = { low: now - t1, high: now - t0 };
    }
    return best;
  };
  /** Let it exit by itself (it does once disconnected); kill it if it does not. */
  const stop = () =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => {
          const kill = setTimeout(() => (child.kill('SIGKILL'), r()), 3_000);
          child.once('exit', () => (clearTimeout(kill), r()));
          if (child.connected) child.disconnect();
        });
  return { child, next, clockOffset, stop };
}

/**
 * Fan-out: `subscribers` SSE streams held by one child process (bench/sse-subscribers.ts,
 * a lean byte parser), a burst of webhooks POSTed to the relay child by another
 * (bench/burst-sender.ts: 64 keep-alive raw connections). Each body carries its send time
 * (`performance.timeOrigin + performance.now()`, µs); the subscriber process reads the
 * same clock on receipt, so latency = receive − send per (subscriber, event). The offset
 * between the two children's clocks is bounded through this process and reported.
 */
export async function benchFanout(
  quick: boolean,
  opts: { relayNodeArgs?: string[]; subscriberNodeArgs?: string[]; size?: FanoutSize } = {},
) {
  const relay = await startRelayProc(mkdtempSync(join(tmpdir(), 'mb-bench-fanout-')), {
    nodeArgs: opts.relayNodeArgs,
  });
  try {
    return await runFanout(quick, [relay], opts.subscriberNodeArgs, opts.size);
  } finally {
    await relay.stopAndWait();
  }
}

/**
 * The load generators stand for a thousand desktops and the service, each on machines of
 * their own; here they share two cores with the relays and Redis. A starved reader shows
 * up as "latency" that is its own unread backlog (seen: 29 MB waiting in the subscribers'
 * socket buffers after the relays had written every frame), so they get the scheduler's
 * preference (nice −10) and what is measured stays the relay's delivery. Returns what
 * was applied (renice needs root or CAP_SYS_NICE).
 */
function preferLoadGenerators(pids: (number | undefined)[]): string {
  try {
    for (const pid of pids) if (pid !== undefined) setPriority(pid, -10);
    return 'nice -10';
  } catch {
    return 'default (renice refused)';
  }
}

/** Warm-up: webhooks of another type, which the subscribers' parser does not count. */
async function warmUp(hookUrl: string): Promise<void> {
  const agent = new Agent({ connections: 50 });
  for (let i = 0; i < 200; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await request(hookUrl, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json' },
          body: `{"type":"warmup","i":${i},"r":${Math.random()}}`,
        });
        await res.body.dump();
      }),
    );
  await agent.close();
}

/** The size of a fan-out run (defaults: the full or quick figure). */
export interface FanoutSize {
  subscribers?: number;
  burst?: number;
  /** Subscriber processes (default one per 1,000 subscribers, so the harness is not what is measured). */
  processes?: number;
}

/** Subscribers held per subscriber process by default. */
export const SUBSCRIBERS_PER_PROCESS = 1000;

/**
 * One measured burst to subscribers dealt evenly over `relays` (nodes on one log), the
 * webhooks POSTed to the first. Every relay is warmed up first, as a relay that has run
 * for a while is. The subscribers are split over `processes` children (each with its own
 * share of the streams, dealt over the nodes by their index across all of them).
 */
export async function runFanout(
  quick: boolean,
  relays: Proc[],
  subscriberNodeArgs?: string[],
  size: FanoutSize = {},
) {
  const subscribers = size.subscribers ?? (quick ? 100 : 1000);
  const burst = size.burst ?? (quick ? 200 : 1000);
  const processes = Math.max(
    1,
    Math.min(subscribers, size.processes ?? Math.ceil(subscribers / SUBSCRIBERS_PER_PROCESS)),
  );
  const timeoutMs = 60_000 + Math.ceil((subscribers * burst) / 100_000);
  const first = relays[0] as Proc;
  const hookUrl = `${first.url}/hooks/${RELAY_SECRET}`;
  const events = relays.map((r) => `${r.url}/events`).join(',');
  const subsList: ReturnType<typeof ipcChild>[] = [];
  for (let k = 0, from = 0; k < processes; k++) {
    const count = Math.floor((subscribers * (k + 1)) / processes) - from;
    subsList.push(
      ipcChild(
        'bench/sse-subscribers.ts',
        [events, RELAY_TOKEN, String(count), String(burst), String(timeoutMs), String(from)],
        subscriberNodeArgs,
      ),
    );
    from += count;
  }
  let sender: ReturnType<typeof ipcChild> | undefined;
  try {
    // One process at a time connects, so the relays' accept queues are not what is measured.
    for (const subs of subsList) await subs.next('ready', 120_000);
    for (const r of relays) await warmUp(`${r.url}/hooks/${RELAY_SECRET}`);
    sender = ipcChild('bench/burst-sender.ts', [hookUrl, String(burst), '64']);
    await sender.next('ready', 30_000);
    const loadGeneratorPriority = preferLoadGenerators([
      ...subsList.map((x) => x.child.pid),
      sender.child.pid,
    ]);
    const b = await sender.clockOffset();
    // subscriber − sender = (subscriber − us) − (sender − us), the widest over the processes.
    let clockOffsetMs = { low: Infinity, high: -Infinity };
    for (const subs of subsList) {
      const a = await subs.clockOffset();
      clockOffsetMs = {
        low: Math.min(clockOffsetMs.low, a.low - b.high),
        high: Math.max(clockOffsetMs.high, a.high - b.low),
      };
    }
    await new Promise((r) => setTimeout(r, 300));
    const counts0 = await Promise.all(relays.map((r) => relayCounts(r.url)));
    const cpu0 = relays.map((r) => cpuMs(r.child.pid));
    for (const subs of subsList) subs.child.send({ type: 'start' });
    sender.child.send({ type: 'start' });
    const sent = await sender.next<{ acked: number; failures: number; ms: number; cpuMs: number }>(
      'sent',
      timeoutMs,
    );
    const results = await Promise.all(
      subsList.map((subs) => subs.next<SubscriberResult>('result', timeoutMs + 10_000)),
    );
    const relayCpuMs = relays.reduce((a, x, i) => a + cpuMs(x.child.pid) - (cpu0[i] as number), 0);
    const counts = await Promise.all(relays.map((x) => relayCounts(x.url)));
    const sum = (f: (c: { commits: number; rounds: number }) => number, cs: typeof counts) =>
      cs.reduce((acc, c) => acc + f(c), 0);
    const total = (f: (r: SubscriberResult) => number) => results.reduce((a, r) => a + f(r), 0);
    const r = results[0] as SubscriberResult;
    const delivered = total((x) => x.delivered);
    // One process: its exact percentiles; several: their merged histograms (within 1 %).
    const latency =
      results.length === 1
        ? r.latency
        : histogramSummary(mergeHistograms(results.map((x) => x.histogram)));
    const latencyByNode =
      results.length === 1 || relays.length === 1
        ? r.byNode
        : relays.map((_, k) =>
            histogramSummary(mergeHistograms(results.map((x) => x.histogramByNode?.[k] ?? []))),
          );
    return {
      nodes: relays.length,
      subscribers,
      subscriberProcesses: processes,
      burst,
      delivered,
      expected: total((x) => x.expected),
      latency,
      latencyByNode,
      duplicates: total((x) => x.duplicates),
      malformed: total((x) => x.malformed),
      acked: sent.acked,
      sendFailures: sent.failures,
      burstMs: sent.ms,
      clockOffsetMs,
      /** Group commits for the burst (at the node taking the webhooks), and fan-out rounds (all nodes). */
      commitBatches: (counts[0]?.commits ?? NaN) - (counts0[0]?.commits ?? NaN),
      fanoutRounds: sum((c) => c.rounds, counts) - sum((c) => c.rounds, counts0),
      /** CPU time of the relays (all nodes), subscribers and senders, burst start → last delivery. */
      relayCpuMs,
      relayCpuUsPerFrame: (relayCpuMs * 1000) / Math.max(1, delivered),
      subscriberCpuMs: total((x) => x.cpuMs),
      /** The busiest subscriber process: what one machine of ~1,000 desktops would spend. */
      subscriberCpuMsMaxProcess: Math.max(...results.map((x) => x.cpuMs)),
      senderCpuMs: sent.cpuMs,
      loadGeneratorPriority,
      method: `relay node(s), subscribers (lean parser, ${processes} process${processes > 1 ? 'es' : ''}) and senders (64 raw keep-alive connections) in their own processes`,
    };
  } finally {
    await Promise.all([...subsList.map((x) => x.stop()), sender?.stop()]);
  }
}
