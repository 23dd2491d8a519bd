/**
 * Only the relay's figures, for profiling and A/B runs (the full suite is bench/run.ts):
 *   npx tsx bench/relay-run.ts <part>… [--quick] [--prof DIR]
 *     [--subscribers N] [--burst N] [--processes N]
 * parts: ingest (SQLite vs bare), backends (SQLite, Redis, bare), fanout (SQLite),
 * nodes1, nodes2, nodes3 (fan-out on Redis over that many nodes). `--prof DIR` runs the
 * relay processes with `node --cpu-prof` and writes their profiles into DIR. The fan-out
 * parts take their size from `--subscribers`, `--burst` and `--processes` (subscriber
 * processes; default one per 1,000 subscribers).
 * Prints one JSON line per part.
 */
import { benchFanout, benchIngest } from './relay-bench.js';
import { benchFanoutNodes, benchIngestBackends } from './relay-ha-bench.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profAt = args.indexOf('--prof');
const profDir = profAt >= 0 ? args[profAt + 1] : undefined;
const nodeArgs = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : undefined;
const valued = ['--prof', '--subscribers', '--burst', '--processes'];
/** A positive integer option, or undefined; anything else stops with a clear message. */
const count = (flag: string): number | undefined => {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const n = Number(args[at + 1]);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`${flag} wants a positive whole number, not ${args[at + 1]}\n`);
    process.exit(2);
  }
  return n;
};
const size = {
  subscribers: count('--subscribers'),
  burst: count('--burst'),
  processes: count('--processes'),
};
const parts = args.filter((a, i) => !a.startsWith('--') && !valued.includes(args[i - 1] ?? ''));

const runs: Record<string, () => Promise<unknown>> = {
  ingest: () => benchIngest(quick, { nodeArgs }),
  backends: () => benchIngestBackends(quick),
  fanout: () => benchFanout(quick, { relayNodeArgs: nodeArgs, size }),
  nodes1: () => benchFanoutNodes(quick, 1, nodeArgs, size),
  nodes2: () => benchFanoutNodes(quick, 2, nodeArgs, size),
  nodes3: () => benchFanoutNodes(quick, 3, nodeArgs, size),
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
