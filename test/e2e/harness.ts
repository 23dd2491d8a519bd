/** Web mode with the embedded simulator, driven in Debian's Chromium via playwright-core. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createAppService, type AppService } from '../../src/main/service.js';
import { createModeSwitchingService } from '../../src/main/mode-switch.js';
import { MemorySecretStore } from '../../src/main/secrets/index.js';
import { startWebHost, type RunningWebHost } from '../../src/main/web/host.js';
import { DEFAULT_CALENDAR_FILTERS } from '../../src/shared/domain.js';
import { directionOf } from '../../src/shared/format.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const STATIC = resolve(import.meta.dirname, '../../out/renderer');

export interface E2E {
  service: AppService;
  host: RunningWebHost;
  browser: Browser;
  page: Page;
  secrets: MemorySecretStore;
  simulatorUrl: string;
  close(): Promise<void>;
}

/** Debian's Chromium with a fresh context, a 1440×900 window. */
export async function launchChromium(
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ browser: Browser; page: Page }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }
  if (!existsSync(join(STATIC, 'index.html'))) {
    throw new Error('The web UI is not built: run `npm run build:web` (npm test does it).');
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
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
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
  return { browser, page: await context.newPage() };
}

export async function startE2E(
  opts: {
    colorScheme?: 'light' | 'dark';
    /** As `npm run web` runs it: auto mode behind the mode switch (demo without keys). */
    modeSwitch?: boolean;
    /** Before the page's own scripts (counting stubs). */
    initScript?: () => void;
  } = {},
): Promise<E2E> {
  const secrets = new MemorySecretStore();
  const options = {
    dataDir: mkdtempSync(join(tmpdir(), 'mb-e2e-')),
    mode: opts.modeSwitch ? ('auto' as const) : ('demo' as const),
    secretStore: secrets,
    demo: { seed: 3, autoplay: false, speed: 1 },
    logFile: null,
    logLevel: 'silent',
  };
  const service = opts.modeSwitch
    ? await createModeSwitchingService(createAppService, options)
    : await createAppService(options);
  const host = await startWebHost({ service, staticDir: STATIC });
  await service.start();
  const { browser, page } = await launchChromium(opts.colorScheme);
  if (opts.initScript) await page.addInitScript(opts.initScript);
  await page.goto(host.url);
  await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 20_000 });
  return {
    service,
    host,
    browser,
    page,
    secrets,
    simulatorUrl: service.simulatorUrl as string,
    async close() {
      await browser.close();
      await host.close();
      await service.stop();
    },
  };
}

/**
 * The calendar as it opens, for a test that starts from there: no filters (they persist in
 * the settings, so an earlier test's would stay), the 1440×900 window, the page loaded
 * again with its rows shown.
 */
export async function openCalendarAfresh(e: E2E): Promise<void> {
  await e.service.api.updateSettings({ calendarFilters: DEFAULT_CALENDAR_FILTERS });
  await e.page.setViewportSize({ width: 1440, height: 900 });
  await e.page.goto(e.host.origin);
  await e.page.locator('[data-testid=event-row]').first().waitFor();
}

export async function sim<T = unknown>(
  e: E2E,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${e.simulatorUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The first row on screen whose print beat or missed its consensus (it has figures to open). */
export const printedRow = (e: E2E) =>
  e.page.locator('[data-testid=event-row]:has([data-col=actual] .cue)').first();

/**
 * Jump to the day of the latest print that beat or missed its consensus: at some hours
 * (a Monday morning) today has printed nothing yet, and the rows on screen have no figures.
 */
export async function showPrintedDay(e: E2E): Promise<void> {
  const now = Date.now();
  const rows = await e.service.api.listEventDates({
    from: new Date(now - 6 * 86_400_000).toISOString(),
    to: new Date(now).toISOString(),
  });
  // the rule the row's ▲/▼ cue follows
  const print = rows.filter((r) => directionOf(r) === 'above' || directionOf(r) === 'below').at(-1);
  if (!print) throw new Error('the demo week has no print that beat or missed its consensus');
  const zone = (await e.service.api.getSettings()).timeZone;
  const timeZone = zone === 'system' ? undefined : zone;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(print.dateUtc));
  await e.page.getByLabel('Go to date').fill(day);
  await printedRow(e).waitFor();
}
