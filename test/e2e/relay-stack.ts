/**
 * The app with a relay configured, in Chromium: the simulator as the service (its
 * webhooks registered to the relay, as `npm run relay -- register` does), a relay, the
 * app core in real mode reading the simulator, the web host, and a page on it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createAppService, type AppService } from '../../src/main/service.js';
import { MemorySecretStore } from '../../src/main/secrets/index.js';
import { startWebHost, type RunningWebHost } from '../../src/main/web/host.js';
import { startRelay, type RunningRelay } from '../../src/relay/server.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { registerWebhook } from '../fixtures/webhooks.js';
import { STATIC, launchChromium } from './harness.js';

export interface RelayStack {
  simulator: RunningSimulator;
  relay: RunningRelay;
  service: AppService;
  host: RunningWebHost;
  browser: Browser;
  page: Page;
  /** The simulator's control API (`/_sim/...`): JSON in, JSON out, a clear error otherwise. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startRelayStack(opts: {
  seed: number;
  name: string;
  /** The safety net's near-window re-read (default 2 s: a dead relay's gap shows soon). */
  nearEveryMs?: number;
}): Promise<RelayStack> {
  const simulator = await startSimulator({ port: 0, seed: opts.seed, autoplay: false });
  const relay = await startRelay({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-e2e-relay-')),
    secret: 'e2e-hook',
    token: 'e2e-desktop',
  });
  const secrets = new MemorySecretStore();
  await secrets.set('publicKey', simulator.clientId);
  await secrets.set('privateKey', simulator.clientSecret);
  await secrets.set('relayToken', 'e2e-desktop');
  const service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), `mb-e2e-${opts.name}-`)),
    mode: 'real',
    secretStore: secrets,
    logFile: null,
    logLevel: 'silent',
    safetyNet: { nearEveryMs: opts.nearEveryMs ?? 2_000 },
    env: {
      MACROBELL_AUTH_URL: simulator.authUrl,
      MACROBELL_CALENDAR_URL: simulator.calendarUrl,
      MACROBELL_NEWS_URL: simulator.newsUrl,
      MACROBELL_RELAY_URL: relay.url,
    },
  });
  const host = await startWebHost({ service, staticDir: STATIC });
  await service.start();
  await registerWebhook({
    authUrl: simulator.authUrl,
    apiUrl: simulator.calendarUrl,
    clientId: simulator.clientId,
    clientSecret: simulator.clientSecret,
    url: relay.webhookUrl,
  });
  const { browser, page } = await launchChromium();
  await page.goto(host.url);
  return {
    simulator,
    relay,
    service,
    host,
    browser,
    page,
    async control<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${simulator.url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async close() {
      await browser.close();
      await host.close();
      await service.stop();
      await relay.close();
      await simulator.close();
    },
  };
}
