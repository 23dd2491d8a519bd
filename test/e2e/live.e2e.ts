/**
 * The feed with a relay configured (not the demo's direct webhooks), in Chromium: the
 * service's deliveries to the relay are lost and a HIGH release still prints in its row
 * within seconds of its time, with a toast (the safety net); after an API outage the banner clears by
 * itself and what changed meanwhile is there.
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

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, seed: 9, autoplay: false });
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
    dataDir: mkdtempSync(join(tmpdir(), 'mb-e2e-live-')),
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
  // the relay is the service's webhook target, as `npm run relay -- register` makes it
  await registerWebhook({
    authUrl: simulator.authUrl,
    apiUrl: simulator.calendarUrl,
    clientId: simulator.clientId,
    clientSecret: simulator.clientSecret,
    url: relay.webhookUrl,
  });
  ({ browser, page } = await launchChromium());
  await page.goto(host.url);
  await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 20_000 });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await service?.stop();
  await relay?.close();
  await simulator?.close();
});

describe('live feed through a relay', () => {
  it('says Live (relay) once the stream is open', async () => {
    await expect
      .poll(() => page.getByTestId('connection-label').textContent(), { timeout: 15_000 })
      .toBe('Live (relay)');
  });

  it('prints a known HIGH release in its row within 5 s while the relay hears nothing', async () => {
    const any = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0] as EventDate;
    const ed = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(Date.now() + 6_000).toISOString(),
      volatility: 'HIGH',
      consensus: 200,
    });
    // the app learns of it (the near-window read) before it prints
    await page.getByLabel('Filter events by name').fill(ed.name);
    const row = page.locator(`[data-event-date-id="${ed.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    await control('POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    await expect
      .poll(() => Date.now(), { timeout: 10_000 })
      .toBeGreaterThan(Date.parse(ed.dateUtc));
    await control('PATCH', `/_sim/event-dates/${ed.id}`, { actual: 275 });
    const printed = Date.now();
    await expect
      .poll(() => row.locator('[data-col=actual]').textContent(), { timeout: 5_000 })
      .toMatch(/275/);
    expect(Date.now() - printed).toBeLessThan(5_000);
    // and the trader hears of it without looking at the row: a toast with the print
    const toast = page.getByTestId('toast').filter({ hasText: ed.name });
    await toast.first().waitFor({ timeout: 5_000 });
    expect(await toast.first().textContent()).toMatch(/275/);
    // nothing reached the relay: the status soon says the safety net is carrying it
    await expect
      .poll(() => page.getByTestId('connection-label').textContent(), { timeout: 20_000 })
      .toBe('Live — webhooks late');
    await expect(page.getByTestId('connection-banner').textContent()).resolves.toMatch(
      /Webhooks late since/,
    );
    await control('DELETE', '/_sim/faults');
    await page.getByLabel('Filter events by name').fill('');
  });

  it('clears the Offline banner by itself within 10 s of the service answering again', async () => {
    await control('POST', '/_sim/faults', { api: { status: 503, count: 1_000_000 } });
    await page.getByTestId('offline-banner').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('offline-banner').textContent()).toMatch(
      /Offline since .* — The calendar service answered HTTP 503\. Showing cached data/,
    );
    const any = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0] as EventDate;
    const during = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(Date.now() + 30 * 60_000).toISOString(),
      volatility: 'HIGH',
    });
    await control('DELETE', '/_sim/faults');
    const back = Date.now();
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 10_000 });
    expect(Date.now() - back).toBeLessThan(10_000);
    await page.getByLabel('Filter events by name').fill(during.name);
    await page.locator(`[data-event-date-id="${during.id}"]`).waitFor({ timeout: 10_000 });
    await page.getByLabel('Filter events by name').fill('');
  });
});
