// Runs the test runner's vitest invocations (jobs) in lanes: up to `lanes` at once, the
// longest expected first. Most test files wait on processes, sockets and timers, so one
// invocation leaves a 2-core machine half idle (CI measured 55 % of its CPU in use); two
// at once fill it. A job run beside another writes to a file, printed whole when it ends,
// so two vitest outputs never interleave; a job run alone streams as it goes.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How many vitest invocations run at once: MACROBELL_TEST_LANES, else 2. */
export function laneCount(env = process.env) {
  const raw = env.MACROBELL_TEST_LANES;
  if (raw === undefined || raw === '') return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 8)
    throw new Error(`MACROBELL_TEST_LANES must be a whole number from 1 to 8, not "${raw}"`);
  return n;
}

/**
 * Runs `jobs` ({ label, command, args, env, weight }) from `cwd`, at most `lanes` at once,
 * heaviest `weight` first; `onDone(job, status, seconds)` after each. Resolves when all ended.
 */
export async function runInLanes(jobs, { lanes, cwd, onStart, onDone }) {
  const queue = [...jobs].sort((a, b) => (b.weight ?? 0) - (a.weight ?? 0));
  const buffered = lanes > 1 && jobs.length > 1;
  const logDir = buffered ? mkdtempSync(join(tmpdir(), 'macrobell-test-lanes-')) : null;
  let next = 0;
  const lane = async () => {
    while (next < queue.length) {
      const job = queue[next++];
      onStart?.(job, buffered);
      const started = Date.now();
      const status = await runOne(job, cwd, logDir ? join(logDir, `${next}.log`) : null);
      onDone?.(job, status, Math.round((Date.now() - started) / 1000));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(lanes, queue.length) }, lane));
  } finally {
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  }
}

/** One job: streamed (log null) or written to `log` and printed whole when it ends. */
function runOne(job, cwd, log) {
  return new Promise((resolve) => {
    const fd = log ? openSync(log, 'w') : null;
    const child = spawn(job.command, job.args, {
      cwd,
      // a file is not a terminal: keep vitest's colours where the output ends up on one
      env: {
        ...process.env,
        ...(fd !== null && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
        ...job.env,
      },
      stdio: fd === null ? 'inherit' : ['ignore', fd, fd],
    });
    let ended = false;
    const finish = (status) => {
      if (ended) return; // a failed spawn may report both 'error' and 'exit'
      ended = true;
      if (fd !== null) {
        closeSync(fd);
        process.stdout.write(`\n▶ ${job.label} (its output)\n${readFileSync(log, 'utf8')}`);
      }
      resolve(status);
    };
    child.on('error', (err) => {
      if (fd !== null) process.stderr.write(`${job.label}: ${err.message}\n`);
      finish(1);
    });
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}
