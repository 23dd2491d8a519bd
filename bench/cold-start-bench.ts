/**
 * First run: an empty data folder in demo mode, started as `npm start` starts it where
 * Electron cannot run (`node scripts/web.mjs`: the web host's bundle, a new process each
 * run, so nothing is warm: not the code, not the cache), and the browser, already open, sent
 * to the URL the moment it is printed. Timed from the process start: the URL, and from the
 * URL the page's first calendar request, the token exchange (the simulator's count of tokens
 * issued, polled), the first calendar rows in the DOM. The target: process start → first
 * rows ≤ 1.5 s on every run.
 *
 *   npx tsx bench/cold-start-bench.ts [runs]   every run's figures, alone (default 5)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { summarize, wallMs } from './lib.js';

const ROWS_SIGNAL = 'macrobell-bench:first-row';
/** A slow service: every calendar and news answer 1 s late (the simulator's latency fault). */
const SLOW_SERVICE_MS = 1_000;
const root = resolve(import.meta.dirname, '..');

/** Wall-clock moments (ms since the epoch) of one cold start. */
interface ColdRun {
  spawned: number;
  url: number;
  firstRequest: number;
  token: number;
  rows: number;
}

/**
 * The lines the web host prints: the simulator's URL, then the login URL. With
 * `serviceLatencyMs`, the simulator is told at once (it prints its URL before the app's) to
 * answer every calendar and news request that late: a slow service.
 */
function startWebCli(dataDir: string, serviceLatencyMs: number) {
  const child = spawn(
    process.execPath,
    [join(root, 'scripts/web.mjs'), '--data', dataDir, '--port', '0'],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let simulator: string | null = null;
  let slowed: Promise<unknown> = Promise.resolve();
  const url = new Promise<{ url: string; at: number }>((resolveUrl, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const at = wallMs();
      out += chunk.toString();
      if (!simulator) {
        simulator = /simulator listening on (\S+)/.exec(out)?.[1] ?? null;
        if (simulator && serviceLatencyMs > 0)
          slowed = fetch(`${simulator}/_sim/faults`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ latencyMs: serviceLatencyMs }),
          });
      }
      const login = /web UI on (\S+)/.exec(out)?.[1];
      if (login) resolveUrl({ url: login, at });
    });
    child.on('exit', (code) => reject(new Error(`the web host exited (${code}) before its URL`)));
  });
  return { child, url, simulator: () => simulator, slowed: () => slowed };
}

/** When the simulator first counts a token issued, polled every 10 ms. */
async function tokenIssuedAt(simulator: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const res = await fetch(`${simulator}/_sim/state`).catch(() => null);
    const state = (await res?.json().catch(() => null)) as {
      tokensIssued?: Record<string, number>;
    } | null;
    const issued = Object.values(state?.tokensIssued ?? {}).reduce((a, b) => a + b, 0);
    if (issued > 0) return wallMs();
    await new Promise((r) => setTimeout(r, 10));
  }
  return NaN;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function oneColdStart(browser: Browser, serviceLatencyMs: number): Promise<ColdRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-bench-cold-'));
  // the browser is open before the app prints its URL, as a user's is
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript((signal) => {
    new MutationObserver((_m, obs) => {
      if (document.querySelector('[data-testid=event-row]')) {
        (window as unknown as { __firstRowAt?: number }).__firstRowAt =
          performance.timeOrigin + performance.now();
        obs.disconnect();
        console.debug(signal);
      }
    }).observe(document, { childList: true, subtree: true });
  }, ROWS_SIGNAL);
  const spawned = wallMs();
  const cli = startWebCli(dataDir, serviceLatencyMs);
  try {
    const { url, at } = await cli.url;
    await cli.slowed();
    const rowsShown = page.waitForEvent('console', {
      predicate: (m) => m.text() === ROWS_SIGNAL,
      timeout: 60_000,
    });
    const token = tokenIssuedAt(cli.simulator() ?? '', rowsShown);
    await page.goto(url, { waitUntil: 'commit' });
    await rowsShown;
    const t = await page.evaluate(() => {
      const first = performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes('/api/listEventDates'));
      return {
        rows: (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? NaN,
        firstRequest: first ? performance.timeOrigin + first.startTime : NaN,
      };
    });
    return { spawned, url: at, token: await token, ...t };
  } finally {
    await context.close();
    await stop(cli.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Build what `npm run web` would build on its first start (the UI, the host's bundle), so no
 * timed run includes a build: a trader's first run comes after the install built them.
 */
function buildFirst(): void {
  for (const script of ['scripts/web-host-build.mjs', 'scripts/web-build.mjs']) {
    const r = spawnSync(process.execPath, [join(root, script)], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${script} failed (${r.status})`);
  }
}

export async function benchColdStart(quick: boolean, runsEach = quick ? 3 : 7) {
  buildFirst();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  const runs: ColdRun[] = [];
  const slow: ColdRun[] = [];
  const n = runsEach;
  try {
    for (let k = 0; k < n; k++) runs.push(await oneColdStart(browser, 0));
    // the same with a service that takes 1 s per answer: the first view must not wait for it
    for (let k = 0; k < n; k++) slow.push(await oneColdStart(browser, SLOW_SERVICE_MS));
  } finally {
    await browser.close();
  }
  const since = (list: ColdRun[], from: keyof ColdRun, to: keyof ColdRun) =>
    summarize(list.map((r) => r[to] - r[from]).filter(Number.isFinite));
  return {
    processToUrl: since(runs, 'spawned', 'url'),
    urlToFirstRequest: since(runs, 'url', 'firstRequest'),
    urlToToken: since(runs, 'url', 'token'),
    urlToRows: since(runs, 'url', 'rows'),
    processToRows: since(runs, 'spawned', 'rows'),
    slowServiceMs: SLOW_SERVICE_MS,
    slowServiceUrlToRows: since(slow, 'url', 'rows'),
    slowServiceProcessToRows: since(slow, 'spawned', 'rows'),
    /** Every run's process start → URL and → rows (ms), as run. */
    runs: runs.map((r) => ({ url: r.url - r.spawned, rows: r.rows - r.spawned })),
    slowRuns: slow.map((r) => ({ url: r.url - r.spawned, rows: r.rows - r.spawned })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] ?? 5);
  const r = await benchColdStart(true, n);
  const line = (label: string, list: { url: number; rows: number }[]) =>
    `${label}: ${list.map((x) => `${x.url.toFixed(0)}/${x.rows.toFixed(0)}`).join(', ')} ms (process start → URL / → rows)`;
  console.log(line('first runs', r.runs));
  console.log(line(`the service ${SLOW_SERVICE_MS} ms late`, r.slowRuns));
  console.log(
    `load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
