// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the calendar of a simulator started today)
/**
 * The app core in desk mode against a real relay (in process) and the simulator: no key
 * and no service token on the "desktop", reads through the relay's gateway, and the
 * messages a trader sees when the relay refuses (revoked token, relay without keys).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { waitFor } from '../../support/wait.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(withKeys: boolean | 'wrong') {
  const sim: RunningSimulator = await startSimulator({ port: 0, seed: 5, autoplay: false });
  cleanups.push(() => sim.close());
  const relayLog: string[] = [];
  const relayData = mkdtempSync(join(tmpdir(), 'mb-desk-core-relay-'));
  const relay: RunningRelay = await startRelay({
    dataDir: relayData,
    secret: 'core-test-secret',
    token: 'core-test-legacy-token',
    desk: {
      keys:
        withKeys === 'wrong'
          ? { publicKey: sim.clientId, privateKey: 'not-the-desk-private-key' }
          : withKeys
            ? { publicKey: sim.clientId, privateKey: sim.clientSecret }
            : null,
      authUrl: sim.authUrl,
    },
    gateway: { calendarUrl: sim.calendarUrl, newsUrl: sim.newsUrl },
    logger: pino({ level: 'info' }, { write: (line: string) => void relayLog.push(line) }),
  });
  cleanups.push(() => relay.close());
  const db = openRelayDatabase(relayData);
  cleanups.push(async () => void db.close());
  const users = new UserDirectory(db);
  const { token } = users.add('trader');
  const secrets = new MemorySecretStore();
  const app: AppService = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-desk-core-app-')),
    secretStore: secrets,
    logFile: null,
    logLevel: 'silent',
    env: {
      MACROBELL_RELAY_URL: relay.url,
      MACROBELL_RELAY_TOKEN: token,
      MACROBELL_CALENDAR_URL: sim.calendarUrl,
      MACROBELL_NEWS_URL: sim.newsUrl,
    },
  });
  cleanups.push(() => app.stop());
  return { sim, relay, users, app, secrets, relayLog };
}

describe('app in desk mode', () => {
  it('starts live without keys and reads both APIs through the relay', async () => {
    const { app, secrets } = await setup(true);
    expect(app.demo).toBe(false);
    expect((await app.api.getSettings()).connection).toBe('desk');
    const test = await app.api.testConnection();
    expect(test.ok).toBe(true);
    // It says who answered: no keys and no service token were involved on this machine.
    expect(test.scopes.calendar.message).toMatch(
      /desk relay at http:\/\/127\.0\.0\.1:\d+ answered a calendar read with your personal token/,
    );
    // The calendar and the news arrive through the gateway.
    await app.start();
    await waitFor(
      async () => (await app.api.listPosts({ page: 1, pageSize: 5 })).items.length > 0,
      'news',
    );
    expect(app.upcomingReleases(5).length).toBeGreaterThan(0);
    expect(test.scopes.news.message).not.toMatch(/keys/);
    expect(await secrets.get('privateKey')).toBeNull();
  });

  it('tells the trader when the relay refuses a revoked token', async () => {
    const { app, users } = await setup(true);
    users.revoke('trader');
    const test = await app.api.testConnection();
    expect(test.ok).toBe(false);
    expect(test.scopes.calendar.message).toMatch(/refused your personal token.*revoked/);
  });

  it('says the desk relay’s keys were refused (not the trader’s), and the relay logs why', async () => {
    const { app, relayLog } = await setup('wrong');
    const test = await app.api.testConnection();
    expect(test.ok).toBe(false);
    const message = test.scopes.calendar.message;
    expect(message).toMatch(/refused the desk relay's provider keys \(invalid_client\)/);
    expect(message).toMatch(/desk administrator/);
    expect(message).not.toMatch(/Check both keys in Settings/);
    const logged = relayLog.join('');
    expect(logged).toMatch(/refused this relay's provider keys \(invalid_client\).*relay keys set/);
    expect(logged).not.toContain('not-the-desk-private-key');
  });

  it('says the relay has no provider keys when it cannot read the service', async () => {
    const { app } = await setup(false);
    const test = await app.api.testConnection();
    expect(test.ok).toBe(false);
    expect(test.scopes.news.message).toMatch(/no provider keys/);
  });
});
