/**
 * Alert receipts in Chromium: a HIGH release printed through the relay alerts, and its
 * receipt in the Alerts history says how late it came and by which path, with each hop's
 * time; Settings → Live updates shows print → alert p50/p99 for that path.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { createAppService, type AppService } from '../../src/main/service.js';
import { MemorySecretStore } from '../../src/main/secrets/index.js';
import { startWebHost, type RunningWebHost } from '../../src/main/web/host.js';
import { startRelay, type RunningRelay } from '../../src/relay/server.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { registerWebhook } from '../fixtures/webhooks.js';
import { STATIC, launchChromium } from './harness.js';

let simulator: RunningSimulator;
let relay: RunningRelay;
let service: AppService;
let host: RunningWebHost;
let browser: Browser;
let page: Page;

async function control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${simulator.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const nav = (name: string) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, seed: 11, autoplay: false });
  relay = await startRelay({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-e2e-relay-')),
    secret: 'e2e-hook',
    token: 'e2e-desktop',
  });
  const secrets = new MemorySecretStore();
  await secrets.set('publicKey', simulator.clientId);
  await secrets.set('privateKey', simulator.clientSecret);
  await secrets.set('relayToken', 'e2e-desktop');
  service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-e2e-receipts-')),
    mode: 'real',
    secretStore: secrets,
    logFile: null,
    logLevel: 'silent',
    safetyNet: { nearEveryMs: 2_000 },
    env: {
      MACROBELL_AUTH_URL: simulator.authUrl,
      MACROBELL_CALENDAR_URL: simulator.calendarUrl,
      MACROBELL_NEWS_URL: simulator.newsUrl,
      MACROBELL_RELAY_URL: relay.url,
    },
  });
  host = await startWebHost({ service, staticDir: STATIC });
  await service.start();
  await registerWebhook({
    authUrl: simulator.authUrl,
    apiUrl: simulator.calendarUrl,
    clientId: simulator.clientId,
    clientSecret: simulator.clientSecret,
    url: relay.webhookUrl,
  });
  ({ browser, page } = await launchChromium());
  await page.goto(host.url);
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await service?.stop();
  await relay?.close();
  await simulator?.close();
});

describe('alert receipts', () => {
  it('shows each hop of an alert that came through the relay, and p50/p99 by path', async () => {
    await expect
      .poll(() => page.getByTestId('connection-label').textContent(), { timeout: 20_000 })
      .toBe('Live (relay)');
    const any = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0] as EventDate;
    const ed = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(Date.now() + 3_000).toISOString(),
      volatility: 'HIGH',
      consensus: 4.1,
    });
    await expect
      .poll(() => Date.now(), { timeout: 10_000 })
      .toBeGreaterThan(Date.parse(ed.dateUtc));
    await control('PATCH', `/_sim/event-dates/${ed.id}`, { actual: 4.7 });
    await page
      .getByTestId('toast')
      .filter({ hasText: ed.name })
      .first()
      .waitFor({ timeout: 10_000 });

    await nav('Alerts');
    const receipt = page.getByTestId('alert-receipt').first();
    await receipt.waitFor({ timeout: 10_000 });
    const summary = (await receipt.locator('summary').textContent()) ?? '';
    expect(summary).toMatch(/^\+\d+\.\d\d s after the print, via relay$/);
    // within a second of the print on loopback
    expect(Number(/\+(\d+\.\d\d) s/.exec(summary)?.[1])).toBeLessThan(1);
    await receipt.locator('summary').click();
    const hops = await receipt.locator('tbody tr').allTextContents();
    const labels = await receipt.locator('tbody th').allTextContents();
    expect(labels).toEqual([
      'Scheduled',
      'Service stamped (lastUpdated)',
      'Relay received',
      'Applied by the app',
      'Notification shown',
    ]);
    // each hop to the millisecond, the relay's and the app's after the print
    for (const hop of hops) expect(hop).toMatch(/\d\d:\d\d:\d\d\.\d{3}/);
    expect(hops[2]).toMatch(/\+\d+\.\d\d s$/);
    await page.screenshot({ path: join(tmpdir(), 'mb-receipt-alerts.png') });

    await nav('Settings');
    const panel = page.getByTestId('feed-latency');
    await panel.waitFor({ timeout: 10_000 });
    const row = panel.locator('tbody tr').filter({ hasText: 'relay' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([
      '1',
      expect.stringMatching(/^\d+\.\d\d s$/),
      expect.stringMatching(/^\d+\.\d\d s$/),
    ]);
  });
});
