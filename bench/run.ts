/**
 * `npm run bench [-- --quick]`: every figure on loopback, bounded in count and time, with
 * baselines measured in the same run. Writes bench/RESULTS.md and bench/results.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { benchPolling, benchTimeToAlert } from './alert-bench.js';
import { benchFreshness, benchUnknownFreshness } from './freshness-bench.js';
import { benchGateway } from './gateway-bench.js';
import { benchIdle, idleMeetsTarget } from './idle-bench.js';
import { fmt } from './lib.js';
import { benchFanout, benchIngest } from './relay-bench.js';
import { benchFanoutNodes, benchFanoutScale, benchIngestBackends } from './relay-ha-bench.js';
import { benchApply, benchStore } from './store-bench.js';
import { benchUi } from './ui-bench.js';
import { benchColdStart } from './cold-start-bench.js';

const quick = process.argv.includes('--quick');
const root = resolve(import.meta.dirname, '..');

if (process.argv.includes('--scale')) {
  await runScale();
  process.exit(0);
}
if (process.argv.includes('--idle')) {
  const settle = process.argv.indexOf('--settle');
  await runIdle(
    process.argv.includes('--hour'),
    settle > 0 ? Number(process.argv[settle + 1]) * 1000 : undefined,
  );
  process.exit(0);
}

/**
 * `npm run bench -- --idle [--hour] [--settle <s>]`: the app core at rest
 * (bench/idle-bench.ts), 60 s each in demo and live mode and demo on a weekday afternoon
 * with the clock pinned; with `--hour` the pinned run lasts an hour; `--settle` waits that
 * long after start-up (default 10 s; 70 s lets V8's one-off memory reducer pass). Prints the rows; bench/results-idle.json.
 */
async function runIdle(hour: boolean, settleMs?: number): Promise<void> {
  if (settleMs !== undefined && !(settleMs >= 0))
    throw new Error('--settle takes the seconds to wait after start-up, e.g. --settle 70');
  process.stdout.write(
    `idle app core, load average ${fmt(loadavg()[0] ?? NaN, 1)}, settle ${(settleMs ?? 10_000) / 1000} s\n| run | s | CPU % of a core | main-thread wake-ups/s | timer callbacks (delay ms: count) | max RSS MB | met |\n|---|---|---|---|---|---|---|\n`,
  );
  const results = await benchIdle({
    seconds: 60,
    weekdaySeconds: hour ? 3600 : 60,
    settleMs,
    onResult: (r) =>
      process.stdout.write(
        `| ${r.label} | ${fmt(r.seconds, 0)} | ${fmt(r.cpuPercent, 3)} | ${fmt(r.wakeupsPerSecond, 2)} | ${Object.entries(
          r.timerCallbacks,
        )
          .map(([d, n]) => `${d}: ${n}`)
          .join(', ')} | ${fmt(r.maxRssMb, 0)} | ${idleMeetsTarget(r) ? 'yes' : '**no**'} |\n`,
      ),
  });
  writeFileSync(
    join(root, 'bench/results-idle.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
  );
}

/**
 * `npm run bench -- --scale`: the fan-out curve, 1,000 to 10,000 desktops on 1 and 3
 * Redis nodes, one burst of 1,000 webhooks each, every frame checked delivered once.
 * Prints the curve and writes bench/results-scale.json.
 */
async function runScale(): Promise<void> {
  const load = () => loadavg()[0] ?? NaN;
  const started = { date: new Date().toISOString(), node: process.version, load1: load() };
  process.stdout.write(
    `fan-out curve, load average ${fmt(load(), 1)} at the start\n| nodes | desktops | subscriber processes | p50 ms | p99 ms | delivered once | burst ms | relay µs/frame | load |\n|---|---|---|---|---|---|---|---|---|\n`,
  );
  const points = await benchFanoutScale(undefined, undefined, (p) => {
    const once = p.delivered === p.expected && p.duplicates === 0 && p.malformed === 0;
    process.stdout.write(
      `| ${p.nodes} | ${fmt(p.subscribers)} | ${p.subscriberProcesses} | ${fmt(p.latency.p50)} | ${fmt(p.latency.p99)} | ${once ? 'yes' : `**no** (${p.delivered}/${p.expected}, ${p.duplicates} dup)`} | ${fmt(p.burstMs, 0)} | ${fmt(p.relayCpuUsPerFrame, 2)} | ${fmt(load(), 1)} |\n`,
    );
  });
  writeFileSync(
    join(root, 'bench/results-scale.json'),
    `${JSON.stringify({ ...started, points }, null, 2)}\n`,
  );
}

interface Row {
  figure: string;
  target: string;
  measured: string;
  baseline: string;
  ratio: string;
  pass: boolean | null;
}
const rows: Row[] = [];
const raw: Record<string, unknown> = {
  quick,
  date: new Date().toISOString(),
  node: process.version,
  cpus: 2,
};
const add = (r: Row) => {
  rows.push(r);
  process.stdout.write(
    `${r.pass === false ? '✘' : '✔'} ${r.figure}: ${r.measured} (target ${r.target}${r.baseline !== '—' ? `, baseline ${r.baseline}` : ''})\n`,
  );
};
const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  process.stdout.write(`… ${name}\n`);
  const started = performance.now();
  const v = await fn();
  raw[name] = v;
  // where a run's time goes: CI runs the quick figures on every submission
  process.stdout.write(`  (${name}: ${Math.round((performance.now() - started) / 1000)} s)\n`);
  return v;
};

const tta = await step('timeToAlert', () => benchTimeToAlert(quick));
const d = tta.results;
add({
  // Measured with the app's 150 ms hold of a calm's first alert off (bench/alert-bench.ts):
  // a trader's alert comes that constant later, by design, to make NFP and the jobless rate
  // one notification.
  figure: 'Time to alert, single webhook (p50 / p99; the app adds its 150 ms same-moment hold)',
  // A single webhook's p99 is 10–25 ms on this box, the pass-through's too: what durability
  // may add is one commit (an fsync), so the same-run target is a difference, not a ratio.
  target: "p99 ≤ the pass-through relay's + 10 ms (same run); ≤ 20 ms on 2 cores",
  measured: `${fmt(d['durable-single']!.p50)} / ${fmt(d['durable-single']!.p99)} ms`,
  baseline: `pass-through ${fmt(d['passthrough-single']!.p50)} / ${fmt(d['passthrough-single']!.p99)} ms`,
  ratio: `${fmt(d['durable-single']!.p99 / d['passthrough-single']!.p99, 2)}×`,
  pass: d['durable-single']!.p99 <= d['passthrough-single']!.p99 + 10,
});
// A burst's p99 is the whole burst's duration through every stage on the machine's cores
// (senders, relay and app on two here): the target is the store-nothing pass-through
// relay's p99 in the same run, i.e. storing every webhook before its 204 costs the
// alert nothing that a relay which stores nothing would not.
const burstRatio = d['durable-burst']!.p99 / d['passthrough-burst']!.p99;
add({
  figure: `Time to alert, burst of ${tta.burst} (p50 / p99)`,
  target: 'p99 ≤ 1.0× the pass-through relay (same run)',
  measured: `${fmt(d['durable-burst']!.p50)} / ${fmt(d['durable-burst']!.p99)} ms (n=${d['durable-burst']!.n})`,
  baseline: `pass-through ${fmt(d['passthrough-burst']!.p50)} / ${fmt(d['passthrough-burst']!.p99)} ms`,
  ratio: `${fmt(burstRatio, 2)}×`,
  pass: burstRatio <= 1,
});
add({
  figure: '30-second polling (analytical: uniform wait)',
  target: '—',
  measured: 'p50 15,000 / p99 29,700 ms',
  baseline: '—',
  ratio: `${fmt(29_700 / d['durable-single']!.p99, 0)}× slower than the relay`,
  pass: null,
});

const ingest = await step('ingest', () => benchIngest(quick));
add({
  figure: 'Relay durable ingest, 64 concurrent senders',
  // 0.7× since issue #15 (was 0.5×).
  target: '≥ 0.7× bare (same run); ≥ 20,000/s on 2 cores',
  measured: `${fmt(ingest.durablePerSec)}/s (${fmt(ingest.relayCpuUsPerRequest, 1)} µs CPU per webhook; ${fmt(ingest.rowsPerCommit, 0)} per commit)`,
  baseline: `bare 204 server ${fmt(ingest.barePerSec)}/s (${fmt(ingest.bareCpuUsPerRequest, 1)} µs CPU per request)`,
  ratio: `${fmt(ingest.durablePerSec / ingest.barePerSec, 2)}×`,
  pass: ingest.durablePerSec >= 20_000 && ingest.durablePerSec / ingest.barePerSec >= 0.7,
});

const fan = await step('fanout', () => benchFanout(quick));
add({
  figure: `Fan-out: ${fan.subscribers} subscribers × ${fan.burst} webhooks, delivery p99`,
  target: '≤ 250 ms',
  measured: `${fmt(fan.latency.p99)} ms (p50 ${fmt(fan.latency.p50)}; ${fan.delivered}/${fan.expected} delivered)`,
  baseline: '—',
  ratio: '—',
  pass: fan.latency.p99 <= 250 && fan.delivered === fan.expected,
});

const backends = await step('ingestBackends', () => benchIngestBackends(quick));
add({
  figure: 'Relay durable ingest on Redis Streams (appendfsync always), 64 concurrent senders',
  target: '≥ 0.5× the SQLite relay',
  measured: `${fmt(backends.redisPerSec)}/s (${backends.redisStored} stored ≥ ${backends.redisAcked} acked)`,
  baseline: `SQLite relay ${fmt(backends.sqlitePerSec)}/s, bare 204 ${fmt(backends.barePerSec)}/s (same run)`,
  ratio: `${fmt(backends.redisPerSec / backends.sqlitePerSec, 2)}× SQLite; SQLite ${fmt(backends.sqlitePerSec / backends.barePerSec, 2)}× bare`,
  pass: backends.redisPerSec / backends.sqlitePerSec >= 0.5 && backends.redisFailures === 0,
});
for (const nodes of [1, 2, 3]) {
  const f = await step(`fanoutNodes${nodes}`, () => benchFanoutNodes(quick, nodes));
  add({
    figure: `Fan-out on Redis: ${f.subscribers} subscribers over ${nodes} node${nodes > 1 ? 's' : ''} × ${f.burst} webhooks, delivery p99`,
    target: '≤ 250 ms, each frame once',
    measured: `${fmt(f.latency.p99)} ms (p50 ${fmt(f.latency.p50)}; ${f.delivered}/${f.expected} delivered, ${f.duplicates} duplicates; ${fmt(f.relayCpuUsPerFrame, 1)} µs relay CPU per frame)`,
    baseline: '—',
    ratio: '—',
    pass: f.latency.p99 <= 250 && f.delivered === f.expected && f.duplicates === 0,
  });
}

const apply = await step('apply', () => benchApply(quick));
add({
  figure:
    'Applying notifications (store + alerts; a burst in one transaction, as the relay consumer does)',
  target: '≥ 10,000/s',
  measured: `${fmt(apply.batchedPerSec)}/s`,
  baseline: `one transaction each ${fmt(apply.perSec)}/s`,
  ratio: `${fmt(apply.batchedPerSec / apply.perSec, 2)}×`,
  pass: apply.batchedPerSec >= 10_000,
});
const st = await step('store', () => benchStore(quick));
add({
  figure: `One-week calendar query, ${fmt(st.eventDates)} event dates cached (${st.rowsPerWeek} rows)`,
  target: 'p50 ≤ 2 ms',
  measured: `p50 ${fmt(st.weekly.p50, 2)} / p99 ${fmt(st.weekly.p99, 2)} ms`,
  baseline: '—',
  ratio: '—',
  pass: st.weekly.p50 <= 2,
});
add({
  figure: `Full-text search, ${fmt(st.posts)} posts cached`,
  target: 'p50 ≤ 5 ms',
  measured: `p50 ${fmt(st.search.p50, 2)} / p99 ${fmt(st.search.p99, 2)} ms`,
  baseline: '—',
  ratio: '—',
  pass: st.search.p50 <= 5,
});
add({
  figure: 'Full-text search, worst case: with a word found in nearly every post',
  target: '—',
  measured: `p50 ${fmt(st.searchWorst.p50, 2)} / p99 ${fmt(st.searchWorst.p99, 2)} ms`,
  baseline: '—',
  ratio: '—',
  pass: null,
});

const poll = await step('polling', () => benchPolling(quick));
add({
  figure: 'Polling mode: scheduled release → alert (burst polling, 1 s)',
  target: '≤ 3 s',
  measured: `p50 ${fmt(poll.delays.p50, 0)} / max ${fmt(poll.delays.max, 0)} ms (n=${poll.delays.n})`,
  baseline: '30-s polling p50 15,000 ms',
  ratio: `${fmt(15_000 / poll.delays.p50, 0)}× faster`,
  pass: poll.delays.n > 0 && poll.delays.max <= 3000,
});

const fresh = await step('freshness under faults', () => benchFreshness(quick));
add({
  figure:
    'Freshness under faults: print → alert with every webhook dropped (safety net, 2 s cadence)',
  target: 'p99 ≤ 3 s',
  measured: `p50 ${fmt(fresh.dropped.p50, 0)} / p99 ${fmt(fresh.dropped.p99, 0)} ms (n=${fresh.dropped.n}, missed ${fresh.dropped.missed})`,
  baseline: `webhooks delivered: p50 ${fmt(fresh.normal.p50, 0)} / p99 ${fmt(fresh.normal.p99, 0)} ms`,
  ratio: '—',
  pass: fresh.dropped.missed === 0 && fresh.dropped.n > 0 && fresh.dropped.p99 <= 3000,
});
const unknown = await step('freshness under faults, unknown releases', () =>
  benchUnknownFreshness(quick),
);
add({
  figure:
    'Freshness under faults: print → alert for releases created while webhooks are dropped (near-window re-read each minute, then the net)',
  target: 'p99 ≤ 63 s, none missed',
  measured: `p50 ${fmt(unknown.p50, 0)} / p99 ${fmt(unknown.p99, 0)} ms (n=${unknown.n}, missed ${unknown.missed})`,
  baseline: `known releases, webhooks dropped: p99 ${fmt(fresh.dropped.p99, 0)} ms`,
  ratio: '—',
  pass: unknown.missed === 0 && unknown.n > 0 && unknown.p99 <= 63_000,
});

const gw = await step('desk gateway', () => benchGateway(quick));
add({
  figure: `Desk gateway: ${gw.desktops} desktops' safety nets on one release, webhooks dropped`,
  target: `upstream ≤ 2× one desktop; print → alert p99 ≤ 3 s on every desktop`,
  measured: `${fmt(gw.many.perSecond, 2)} upstream req/s; alert p50 ${fmt(gw.many.p50, 0)} / p99 ${fmt(gw.many.p99, 0)} ms (n=${gw.many.n}, missed ${gw.many.missed})`,
  baseline: `1 desktop: ${fmt(gw.one.perSecond, 2)} req/s`,
  ratio: `${fmt(gw.many.perSecond / Math.max(gw.one.perSecond, 0.01), 1)}× one desktop's requests for ${gw.desktops}× the desktops`,
  pass:
    gw.many.missed === 0 &&
    gw.many.p99 <= 3000 &&
    gw.many.perSecond <= 2 * Math.max(gw.one.perSecond, 0.5),
});

if (!existsSync(join(root, 'out/renderer/index.html'))) {
  spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit' },
  );
}
const ui = await step('ui', () => benchUi(quick));
// The limits are timed in the same Chromium run, visits alternating: the same 2,000 rows
// as static HTML (navigation → painted) and a blank page's first paint. Absolute figures
// move 2–4× between machines and loads; these ratios do not.
const renderRatio = ui.renderAfterData.p50 / ui.staticRows.p50;
// First paint against the static rows, not a blank page: a blank page's paint is mostly
// process start-up, so its ratio swung 3.3–5.1× with the load; the static rows' parse and
// paint scale with the load as the app's bundle does (0.88–1.12× in four runs).
const fcpRatio = ui.fcp.p50 / ui.staticRows.p50;
const coldRatio = ui.coldStartToRows.p50 / ui.staticRows.p50;
add({
  figure: `Renderer: ${ui.rowsInWindow}-row calendar, data → rows painted`,
  target: '≤ 0.5× the same rows as static HTML (same run); ≤ 100 ms on 2 cores',
  measured: `p50 ${fmt(ui.renderAfterData.p50, 0)} ms (machine load ${fmt(ui.machineLoad, 1)})`,
  baseline: `static HTML, navigation → rows painted: p50 ${fmt(ui.staticRows.p50, 0)} ms`,
  ratio: `${fmt(renderRatio, 2)}×`,
  pass: renderRatio <= 0.5,
});
add({
  figure: 'Web-mode cold start (warm cache): first paint / calendar rows',
  target:
    'first paint ≤ 1.5×, rows ≤ 2.5× the same rows as static HTML (same run); ≤ 1 s on 2 cores',
  measured: `${fmt(ui.fcp.p50, 0)} / ${fmt(ui.coldStartToRows.p50, 0)} ms (machine load ${fmt(ui.machineLoad, 1)})`,
  baseline: `blank page first paint ${fmt(ui.blankFcp.p50, 0)} ms; static rows ${fmt(ui.staticRows.p50, 0)} ms`,
  ratio: `${fmt(fcpRatio, 2)}× / ${fmt(coldRatio, 2)}×`,
  pass: fcpRatio <= 1.5 && coldRatio <= 2.5,
});

const cold = await step('coldStart', () => benchColdStart(quick));
// Every first run, not the median: a trader meets one first run, not the middle of seven
// (#45), timed from the process start as `npm start` starts it (scripts/web.mjs)
add({
  figure: 'Web-mode first run (empty data folder, demo): process start → first calendar rows',
  target: '≤ 1.5 s on every run',
  measured: `max ${fmt(cold.processToRows.max, 0)} ms, p50 ${fmt(cold.processToRows.p50, 0)} ms (process start → URL ${fmt(cold.processToUrl.p50, 0)} ms; URL → first request ${fmt(cold.urlToFirstRequest.p50, 0)} ms, → token ${fmt(cold.urlToToken.p50, 0)} ms, → rows max ${fmt(cold.urlToRows.max, 0)} ms)`,
  baseline: '—',
  ratio: '—',
  pass: cold.processToRows.max <= 1500,
});
add({
  figure: `Web-mode first run, the service answering ${fmt(cold.slowServiceMs / 1000, 0)} s late: URL → first rows`,
  target: '≤ 1.5 s on every run',
  measured: `max ${fmt(cold.slowServiceUrlToRows.max, 0)} ms, p50 ${fmt(cold.slowServiceUrlToRows.p50, 0)} ms`,
  baseline: '—',
  ratio: '—',
  pass: cold.slowServiceUrlToRows.max <= 1500,
});

const [ed, posts] = quick ? [10_000, 5_000] : [100_000, 50_000];
// Filled by one process, measured in another: a user's app opens a cache it filled over days.
const memDb = join(mkdtempSync(join(tmpdir(), 'mb-bench-mem-')), 'mem.db');
const memoryChild = (...args: string[]) =>
  spawnSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', 'bench/memory-child.ts', ...args],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
memoryChild('fill', memDb, String(ed), String(posts));
const mem = memoryChild('measure', memDb);
rmSync(dirname(memDb), { recursive: true, force: true });
const rss =
  (JSON.parse(mem.stdout.trim().split('\n').at(-1) ?? '{}') as { rssMb?: number }).rssMb ?? NaN;
raw.memory = { eventDates: ed, posts, rssMb: rss };
add({
  figure: `Core RSS with ${fmt(ed)} event dates and ${fmt(posts)} posts cached`,
  target: '≤ 150 MB',
  measured: `${fmt(rss)} MB`,
  baseline: '—',
  ratio: '—',
  pass: rss <= 150,
});

if (!quick) {
  // After V8's one-off memory reducer (~55 s after start-up), so the window is the steady state.
  const idle = await step('idle', () => benchIdle({ seconds: 60, settleMs: 70_000 }));
  for (const r of idle)
    add({
      figure: `Idle tray cost, app core with no window open (70 s after start): ${r.label}`,
      target: '≤ 0.2 % of a core, no repeating timer under 1 s, RSS < 150 MB',
      measured: `${fmt(r.cpuPercent, 3)} % of a core over ${fmt(r.seconds, 0)} s; ${fmt(r.wakeupsPerSecond, 2)} main-thread wake-ups/s; timers ${Object.entries(
        r.timerCallbacks,
      )
        .map(([delay, n]) => `${delay} ms × ${n}`)
        .join(', ')}; RSS ${fmt(r.maxRssMb, 0)} MB`,
      baseline: '—',
      ratio: '—',
      pass: idleMeetsTarget(r),
    });
}

const md = [
  '# Benchmark results',
  '',
  `${quick ? 'Quick smoke run' : 'Full run'} on ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, 2 cores, everything on loopback. Method: [bench/README.md](README.md).`,
  '',
  '| Figure | Target | Measured | Baseline (same run) | Ratio | Met |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.figure} | ${r.target} | ${r.measured} | ${r.baseline} | ${r.ratio} | ${r.pass === null ? '—' : r.pass ? 'yes' : '**no**'} |`,
  ),
  '',
].join('\n');
const analysis = join(root, 'bench/analysis.md');
if (!quick) {
  writeFileSync(
    join(root, 'bench/RESULTS.md'),
    existsSync(analysis) ? `${md}\n${readFileSync(analysis, 'utf8')}` : md,
  );
  writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(raw, null, 2)}\n`);
} else {
  writeFileSync(join(root, 'bench/results-quick.json'), `${JSON.stringify(raw, null, 2)}\n`);
}
process.stdout.write(`\n${md}`);
process.exit(0);
