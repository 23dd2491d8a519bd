/**
 * A wrong base URL answers 404 to every read. A 404 for one record means "gone upstream"
 * only when the same API still answers a read it always has: otherwise each `*_created`
 * would read as deleted, the relay cursor would move past it and the status would stay
 * green (issue #42). Real API clients against the simulator, a real SQLite store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertsEngine } from '../../../src/main/alerts/index.js';
import { TokenManager } from '../../../src/main/auth/index.js';
import { createApiClients } from '../../../src/main/api/index.js';
import { failureKind } from '../../../src/main/errors.js';
import { openStore } from '../../../src/main/store/index.js';
import { ChangeApplier } from '../../../src/main/sync/applier.js';
import { observeApis, ServiceHealth } from '../../../src/main/sync/service-health.js';
import { HttpClient } from '../../../src/node/http/client.js';
import { silentLogger } from '../../../src/node/log/logger.js';
import { ServiceUrlError } from '../../../src/node/service/errors.js';
import { DEFAULT_ALERT_RULES } from '../../../src/shared/domain.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { createHighRelease } from '../../support/releases.js';

let sim: RunningSimulator;
const cleanup: (() => void)[] = [];
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5, autoplay: false, log: () => undefined });
});
afterAll(() => sim.close());
afterEach(() => cleanup.splice(0).forEach((f) => f()));

function core(urls: { calendar: string; news: string }) {
  const store = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-wrong-url-')), 'c.db') });
  const http = new HttpClient({ sleep: async () => undefined });
  const tokens = new TokenManager({
    authUrl: () => sim.authUrl,
    credentials: async () => ({ publicKey: sim.clientId, privateKey: sim.clientSecret }),
    http,
  });
  const api = createApiClients({
    urls: () => ({ auth: sim.authUrl, ...urls }),
    language: () => 'en',
    tokens,
    http,
  });
  const health = new ServiceHealth();
  const { calendar, news } = observeApis(health, api.calendar, api.news);
  const alerts = new AlertsEngine({
    store,
    rules: () => DEFAULT_ALERT_RULES,
    timeZone: () => 'UTC',
  });
  const applier = new ChangeApplier({
    store,
    calendar,
    news,
    alerts,
    logger: silentLogger(),
    cultures: () => ['en-US'],
  });
  cleanup.push(() => {
    applier.cancelPending();
    alerts.stop();
    store.close();
  });
  return { store, health, applier, calendar };
}

const created = (id: string, eventId: string) => ({
  type: 'eventDate_created',
  eventDateId: id,
  eventId,
  lastUpdated: Math.floor(Date.now() / 1000),
});

describe('a record read that answers 404', () => {
  it('is an outage naming the URL when the API answers 404 to everything', async () => {
    const release = await createHighRelease(sim.url, 3_600_000, { name: 'Wrong URL Index' });
    const { store, health, applier } = core({
      calendar: `${sim.url}/calendar-moved`,
      news: `${sim.url}/news-moved`,
    });
    const applying = applier.applyNotification(created(release.id, release.eventId), 'relay');
    const err = await applying.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUrlError);
    // Retried (the relay cursor stays), and the status is an outage with the cause named.
    expect(failureKind(err)).toEqual({ connectivity: true, retryable: true });
    expect(health.failing).toBe(true);
    expect(health.get().error).toMatch(/calendar service answers "not found".*check its URL/);
    // Not taken for a deletion: no tombstone keeps the release out once the URL is fixed.
    expect(store.isTombstoned('eventDate', release.id, 0)).toBe(false);
  });

  it('is "gone upstream" when the API answers its other reads', async () => {
    const { health, applier } = core({ calendar: sim.calendarUrl, news: sim.newsUrl });
    const changes = await applier.applyNotification(
      created('00000000-0000-4000-8000-00000000dead', '00000000-0000-4000-8000-00000000beef'),
      'relay',
    );
    expect(changes).toEqual([]);
    expect(health.failing).toBe(false);
    expect(health.get().lastOkAt).not.toBeNull();
  });

  it('makes a window read at a wrong URL an outage, not an answer about the data', async () => {
    const { health, calendar } = core({ calendar: `${sim.url}/nowhere`, news: sim.newsUrl });
    const from = new Date().toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    await expect(calendar.eventDates({ from, to })).rejects.toBeInstanceOf(ServiceUrlError);
    expect(health.failing).toBe(true);
  });
});
