/**
 * Renderer figures in Chromium: first render of a 2,000-row calendar and cold start to
 * first paint, each beside its limit timed in the same browser run with the visits
 * alternating: the same 2,000 rows as static HTML (navigation → rows in the DOM) and a
 * blank page's first paint. A loaded or slow machine moves both alike; the targets are
 * ratios to them.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import type { EventDate } from '../src/shared/domain/calendar.js';

const ROWS_SIGNAL = 'macrobell-bench:first-row';

const escapeHtml = (v: string) =>
  v.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
  );

/** The same rows as static HTML (one table, the calendar's columns), and a blank page. */
function staticPages(rows: EventDate[]): { rows: string; blank: string } {
  const sorted = [...rows].sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
  const tr = (e: EventDate) =>
    `<tr data-testid="event-row"><td>${e.dateUtc.slice(0, 16).replace('T', ' ')}</td><td>${e.countryCode}</td><td>${escapeHtml(e.name)}</td><td>${e.volatility}</td><td>${e.actual ?? ''}</td><td>${e.consensus ?? ''}</td><td>${e.previous ?? ''}</td></tr>`;
  return {
    rows: `<!doctype html><html><head><meta charset="utf-8"><title>rows</title></head><body><table>${sorted.map(tr).join('')}</table></body></html>`,
    blank:
      '<!doctype html><html><head><meta charset="utf-8"><title>blank</title></head><body><p>.</p></body></html>',
  };
}

function serveStatic(pages: {
  rows: string;
  blank: string;
}): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const body = req.url === '/rows' ? pages.rows : pages.blank;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

export async function benchUi(quick: boolean) {
  // Both figures are wall clock on a 2-core machine: a busy neighbour doubles them. The
  // 1-minute load average before the step is reported beside them.
  const machineLoad = loadavg()[0] as number;
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-bench-ui-'));
  // A warm cache with 2,000 event dates inside the calendar window (demo db: demo mode).
  const store = openStore({ path: join(dataDir, 'demo.db') });
  const rng = createRng('bench-ui');
  const from = Date.now() - 7 * 86_400_000;
  const eventDates = Array.from({ length: 2000 }, (_, i) => ({
    ...syntheticEventDate(i, from, 21, rng),
    id: `ui-${i}`,
  }));
  store.transaction(() => {
    for (const e of eventDates) store.upsertEventDate(e, {});
  });
  store.close();
  const limits = await serveStatic(staticPages(eventDates));
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
  const staticRows: number[] = [];
  const blankFcp: number[] = [];
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
      // The limits, right after (same browser, same moment of the machine's load).
      const limit = await visitStatic(browser, limits.origin);
      if (k > 0) {
        staticRows.push(limit.rowsAt);
        blankFcp.push(limit.blankFcp);
      }
    }
  } finally {
    limits.server.close();
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
    /** The same 2,000 rows as static HTML: navigation → rows in the DOM. */
    staticRows: summarize(staticRows),
    /** A blank page: navigation → first contentful paint. */
    blankFcp: summarize(blankFcp),
  };
}

/** One cold visit to the static rows and one to the blank page, each in a fresh context. */
async function visitStatic(
  browser: Awaited<ReturnType<typeof chromium.launch>>,
  origin: string,
): Promise<{ rowsAt: number; blankFcp: number }> {
  const rowsContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await rowsContext.newPage();
  await page.goto(`${origin}/rows`, { waitUntil: 'load' });
  // The rows are in the HTML: the first one is in the DOM when parsing reaches it, all
  // of them by DOMContentLoaded; painted at the first contentful paint after.
  const rowsAt = await page.evaluate(async () => {
    await new Promise<void>((r) =>
      performance.getEntriesByName('first-contentful-paint').length
        ? r()
        : new PerformanceObserver(() => r()).observe({ type: 'paint', buffered: true }),
    );
    return performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
  });
  await rowsContext.close();
  const blankContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const blank = await blankContext.newPage();
  await blank.goto(`${origin}/blank`, { waitUntil: 'load' });
  const blankFcp = await blank.evaluate(async () => {
    await new Promise<void>((r) =>
      performance.getEntriesByName('first-contentful-paint').length
        ? r()
        : new PerformanceObserver(() => r()).observe({ type: 'paint', buffered: true }),
    );
    return performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
  });
  await blankContext.close();
  return { rowsAt, blankFcp };
}
