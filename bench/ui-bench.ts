/** Renderer figures in Chromium: first render of a 2,000-row calendar and cold start to first paint. */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { createAppService } from '../src/main/service.js';
import { MemorySecretStore } from '../src/main/secrets/index.js';
import { openStore } from '../src/main/store/index.js';
import { startWebHost } from '../src/main/web/host.js';
import { createRng } from '../src/simulator/rng.js';
import { syntheticEventDate } from './store-bench.js';
import { summarize } from './lib.js';

const ROWS_SIGNAL = 'macrobell-bench:first-row';

export async function benchUi(quick: boolean) {
  // Both figures are wall clock on a 2-core machine: a busy neighbour doubles them. The
  // 1-minute load average before the step is reported beside them.
  const machineLoad = loadavg()[0] as number;
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-bench-ui-'));
  // A warm cache with 2,000 event dates inside the calendar window (demo db: demo mode).
  const store = openStore({ path: join(dataDir, 'demo.db') });
  const rng = createRng('bench-ui');
  const from = Date.now() - 7 * 86_400_000;
  store.transaction(() => {
    for (let i = 0; i < 2000; i++)
      store.upsertEventDate({ ...syntheticEventDate(i, from, 21, rng), id: `ui-${i}` }, {});
  });
  store.close();
  const service = await createAppService({
    dataDir,
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    demo: { autoplay: false },
  });
  const host = await startWebHost({
    service,
    staticDir: resolve(import.meta.dirname, '../out/renderer'),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const firstRows: number[] = [];
  const fcp: number[] = [];
  const render: number[] = [];
  let rows = 0;
  try {
    const runs = quick ? 5 : 9;
    // The host's URL carries a one-time login code: the first visit logs in, the later
    // (cold) visits reuse its session cookie, as a reopened browser tab would.
    let session: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
    for (let k = 0; k < runs + 1; k++) {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        storageState: session,
      });
      const page = await context.newPage();
      // The page says when its first row is in the DOM (a console message from the observer
      // installed before load). Waiting with a locator instead would run Playwright's injected
      // script on the page's main thread during the very load being timed.
      await page.addInitScript((signal) => {
        const w = window as unknown as { __firstRowAt?: number };
        new MutationObserver((_m, obs) => {
          if (document.querySelector('[data-testid=event-row]')) {
            w.__firstRowAt = performance.now();
            obs.disconnect();
            console.debug(signal);
          }
        }).observe(document, { childList: true, subtree: true });
      }, ROWS_SIGNAL);
      const rowsShown = page.waitForEvent('console', {
        predicate: (m) => m.text() === ROWS_SIGNAL,
        timeout: 60_000,
      });
      await page.goto(session ? `${host.origin}/` : host.url, { waitUntil: 'commit' });
      await rowsShown;
      const t = await page.evaluate(() => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const rowsAt = (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? NaN;
        // The response the rows came from: the last calendar answer before they appeared
        // (another listEventDates ending earlier, e.g. a filtered calendar's countdown,
        // would count its wait for the rows as render time).
        const data = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/listEventDates'))
          .map((e) => (e as PerformanceResourceTiming).responseEnd)
          .filter((end) => end <= rowsAt);
        return { rowsAt, fcp: paint?.startTime ?? NaN, dataAt: Math.max(...data) };
      });
      rows = await page.evaluate(async () => {
        const r = await fetch('/api/listEventDates', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            // The page's session key, as the app's bridge sends it (the cookie alone is refused).
            'x-macrobell-key': localStorage.getItem('macrobell.pageKey') ?? '',
          },
          body: JSON.stringify({
            from: new Date(Date.now() - 7 * 86_400_000).toISOString(),
            to: new Date(Date.now() + 15 * 86_400_000).toISOString(),
          }),
        });
        return ((await r.json()) as { value: unknown[] }).value.length;
      });
      if (k > 0) {
        // first run warms the HTTP cache and the service; later runs are "warm cache" cold starts
        firstRows.push(t.rowsAt);
        render.push(t.rowsAt - t.dataAt);
        fcp.push(t.fcp);
      }
      session ??= await context.storageState();
      await context.close();
    }
  } finally {
    await browser.close();
    await host.close();
    await service.stop();
  }
  return {
    rowsInWindow: rows,
    machineLoad,
    coldStartToRows: summarize(firstRows),
    renderAfterData: summarize(render),
    fcp: summarize(fcp),
  };
}
