/**
 * `npm run bench [-- --quick]`: every figure on loopback, bounded in count and time, with
 * baselines measured in the same run. Writes bench/RESULTS.md and bench/results.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchPolling, benchTimeToAlert } from './alert-bench.js';
import { benchFreshness, benchUnknownFreshness } from './freshness-bench.js';
import { benchGateway } from './gateway-bench.js';
import { fmt } from './lib.js';
import { benchFanout, benchIngest } from './relay-bench.js';
import { benchFanoutNodes, benchIngestBackends } from './relay-ha-bench.js';
import { benchApply, benchStore } from './store-bench.js';
import { benchUi } from './ui-bench.js';

const quick = process.argv.includes('--quick');
const root = resolve(import.meta.dirname, '..');

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
  const v = await fn();
  raw[name] = v;
  return v;
};

const tta = await step('timeToAlert', () => benchTimeToAlert(quick));
const d = tta.results;
add({
  figure: 'Time to alert, single webhook (p50 / p99)',
  target: 'p99 ≤ 20 ms',
  measured: `${fmt(d['durable-single']!.p50)} / ${fmt(d['durable-single']!.p99)} ms`,
  baseline: `pass-through ${fmt(d['passthrough-single']!.p50)} / ${fmt(d['passthrough-single']!.p99)} ms`,
  ratio: `${fmt(d['durable-single']!.p99 / d['passthrough-single']!.p99, 2)}×`,
  pass: d['durable-single']!.p99 <= 20,
});
add({
  figure: `Time to alert, burst of ${tta.burst} (p50 / p99)`,
  target: 'p99 ≤ 20 ms',
  measured: `${fmt(d['durable-burst']!.p50)} / ${fmt(d['durable-burst']!.p99)} ms (n=${d['durable-burst']!.n})`,
  baseline: `pass-through ${fmt(d['passthrough-burst']!.p50)} / ${fmt(d['passthrough-burst']!.p99)} ms`,
  ratio: `${fmt(d['durable-burst']!.p99 / d['passthrough-burst']!.p99, 2)}×`,
  pass: d['durable-burst']!.p99 <= 20,
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
  target: '≥ 20,000/s and ≥ 0.7× bare',
  measured: `${fmt(ingest.durablePerSec)}/s`,
  baseline: `bare 204 server ${fmt(ingest.barePerSec)}/s`,
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
  target: '≤ 2 ms',
  measured: `p50 ${fmt(st.weekly.p50, 2)} / p99 ${fmt(st.weekly.p99, 2)} ms`,
  baseline: '—',
  ratio: '—',
  pass: st.weekly.p50 <= 2,
});
add({
  figure: `Full-text search, ${fmt(st.posts)} posts cached`,
  target: '≤ 5 ms',
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
add({
  figure: `Renderer: ${ui.rowsInWindow}-row calendar, data → rows painted`,
  target: '≤ 100 ms',
  measured: `p50 ${fmt(ui.renderAfterData.p50, 0)} ms (machine load ${fmt(ui.machineLoad, 1)})`,
  baseline: '—',
  ratio: '—',
  pass: ui.renderAfterData.p50 <= 100,
});
add({
  figure: 'Web-mode cold start (warm cache): first paint / calendar rows',
  target: '≤ 1 s',
  measured: `${fmt(ui.fcp.p50, 0)} / ${fmt(ui.coldStartToRows.p50, 0)} ms (machine load ${fmt(ui.machineLoad, 1)})`,
  baseline: '—',
  ratio: '—',
  pass: ui.coldStartToRows.p50 <= 1000,
});

const [ed, posts] = quick ? [10_000, 5_000] : [100_000, 50_000];
const mem = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--expose-gc', 'bench/memory-child.ts', String(ed), String(posts)],
  { cwd: root, encoding: 'utf8' },
);
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
