/**
 * Only the relay's figures, for profiling and A/B runs (the full suite is bench/run.ts):
 *   npx tsx bench/relay-run.ts <part>… [--quick] [--prof DIR]
 * parts: ingest (SQLite vs bare), backends (SQLite, Redis, bare), fanout (SQLite),
 * nodes1, nodes2, nodes3 (fan-out on Redis over that many nodes). `--prof DIR` runs the
 * relay processes with `node --cpu-prof` and writes their profiles into DIR.
 * Prints one JSON line per part.
 */
import { benchFanout, benchIngest } from './relay-bench.js';
import { benchFanoutNodes, benchIngestBackends } from './relay-ha-bench.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profAt = args.indexOf('--prof');
const profDir = profAt >= 0 ? args[profAt + 1] : undefined;
const nodeArgs = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : undefined;
const parts = args.filter((a, i) => !a.startsWith('--') && (profAt < 0 || i !== profAt + 1));

const runs: Record<string, () => Promise<unknown>> = {
  ingest: () => benchIngest(quick, { nodeArgs }),
  backends: () => benchIngestBackends(quick),
  fanout: () => benchFanout(quick, { relayNodeArgs: nodeArgs }),
  nodes1: () => benchFanoutNodes(quick, 1, nodeArgs),
  nodes2: () => benchFanoutNodes(quick, 2, nodeArgs),
  nodes3: () => benchFanoutNodes(quick, 3, nodeArgs),
};
const unknown = parts.filter((p) => !(p in runs));
if (parts.length === 0 || unknown.length > 0) {
  process.stderr.write(`parts: ${Object.keys(runs).join(' ')} (unknown: ${unknown.join(' ')})\n`);
  process.exit(2);
}
for (const p of parts) {
  const r = await (runs[p] as () => Promise<unknown>)();
  process.stdout.write(`${JSON.stringify({ part: p, ...(r as object) })}\n`);
}
process.exit(0);
