// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Settings → Calendar feed in Chromium (issue #16, item 17): web mode in desk mode against
 * a real relay (in process, the simulator as the service). The card shows the webcal URL
 * the relay issued, Copy puts it on the clipboard, the copied URL serves the watched
 * events, and Rotate replaces it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../src/main/service.js';
import { MemorySecretStore } from '../../src/main/secrets/index.js';
import { startWebHost, type RunningWebHost } from '../../src/main/web/host.js';
import { startRelay, type RunningRelay } from '../../src/relay/server.js';
import { openRelayDatabase } from '../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../src/relay/users/users.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { STATIC, launchChromium } from './harness.js';

let sim: RunningSimulator;
let relay: RunningRelay;
let service: AppService;
let host: RunningWebHost;
let page: Page;
let close: () => Promise<void>;
let watchedEventId = '';

beforeAll(async () => {
  sim = await startSimulator({ seed: 7, autoplay: false, log: () => undefined });
  const relayData = mkdtempSync(join(tmpdir(), 'mb-feed-e2e-relay-'));
  relay = await startRelay({
    dataDir: relayData,
    secret: 'feed-e2e-secret',
    token: 'feed-e2e-legacy',
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
  });
  const db = openRelayDatabase(relayData);
  const { token } = new UserDirectory(db).add('alice');
  db.close();
  service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-feed-e2e-app-')),
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    env: {
      MACROBELL_RELAY_URL: relay.url,
      MACROBELL_RELAY_TOKEN: token,
      MACROBELL_AUTH_URL: sim.authUrl,
      MACROBELL_CALENDAR_URL: sim.calendarUrl,
      MACROBELL_NEWS_URL: sim.newsUrl,
    },
  });
  host = await startWebHost({ service, staticDir: STATIC });
  await service.start();
  watchedEventId = [...sim.state.eventDates.values()].find((ed) => !ed.isAllDay)?.eventId as string;
  await service.api.setWatched({ eventId: watchedEventId, watched: true });
  const chromium = await launchChromium();
  page = chromium.page;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(host.url).origin,
  });
  close = async () => {
    await chromium.browser.close();
    await host.close();
    await service.stop();
    await relay.close();
    await sim.close();
  };
  await page.goto(host.url);
  await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 30_000 });
}, 120_000);
afterAll(async () => {
  await close?.();
});

it('shows the feed URL in Settings, copies it, and the copied URL serves the watched events', async () => {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Settings/ })
    .click();
  const card = page.getByTestId('calendar-feed-card');
  await expect
    .poll(() => card.textContent(), { timeout: 15_000 })
    .toMatch(/Subscribe in Outlook, Google or Apple Calendar.*1 watched event in the feed/);
  const field = card.getByTestId('calendar-feed-url');
  const shown = await field.inputValue();
  expect(shown).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\/calendar\/mbf_[\w-]{43}\.ics$/);

  await card.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(() => card.getByRole('status').textContent()).toMatch(/Feed URL copied/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(shown);

  const ics = await (await fetch(copied.replace(/^webcal:/, 'http:'))).text();
  const uids = [...sim.state.eventDates.values()]
    .filter((ed) => ed.eventId === watchedEventId)
    .map((ed) => `UID:${ed.id}@macrobell`);
  for (const uid of uids) expect(ics).toContain(uid);
  await page.screenshot({ path: join(tmpdir(), 'macrobell-calendar-feed.png') });

  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: 'Rotate' }).click();
  await expect.poll(() => field.inputValue()).not.toBe(shown);
  expect((await fetch(shown.replace(/^webcal:/, 'http:'))).status).toBe(404);
});
