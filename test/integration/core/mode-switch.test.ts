// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppStatus } from '../../../src/shared/domain.js';
import { createAppService, type AppServiceOptions } from '../../../src/main/service.js';
import { createModeSwitchingService } from '../../../src/main/mode-switch.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';

const cleanup: (() => Promise<void>)[] = [];
const thisMonth = () => ({
  from: new Date(Date.now() - 15 * 86_400_000).toISOString(),
  to: new Date(Date.now() + 15 * 86_400_000).toISOString(),
});
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** A first start with no keys (demo data), beside a "real" service with its own keys. */
async function firstStart() {
  const real: RunningSimulator = await startSimulator({
    port: 0,
    seed: 11,
    autoplay: false,
    clientId: 'live-public',
    clientSecret: 'live-private',
  });
  cleanup.push(() => real.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-switch-'));
  const opts: AppServiceOptions = {
    dataDir,
    mode: 'auto',
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    demo: { autoplay: false },
    env: {
      MACROBELL_AUTH_URL: real.authUrl,
      MACROBELL_CALENDAR_URL: real.calendarUrl,
      MACROBELL_NEWS_URL: real.newsUrl,
    },
  };
  return { real, dataDir, opts };
}

describe('demo ⇄ live without a restart', () => {
  it('saving keys on demo data switches to the real service; removing them goes back', async () => {
    const { dataDir, opts } = await firstStart();
    const service = await createModeSwitchingService(createAppService, opts);
    cleanup.push(() => service.stop());
    const statuses: AppStatus[] = [];
    service.on('status', (s) => statuses.push(s));
    await service.start();
    expect(service.demo).toBe(true);
    expect((await service.api.getStatus()).demo).toBe(true);

    const info = await service.api.setCredentials({
      publicKey: 'live-public',
      privateKey: 'live-private',
    });
    expect(info.configured).toBe(true);
    expect(service.demo).toBe(false);
    // A listener from before the switch hears the new core: the window learns at once.
    expect(statuses.at(-1)?.demo).toBe(false);
    // Test connection now checks the user's keys on the real service, not the demo's.
    expect(await service.api.testConnection()).toMatchObject({ ok: true });
    expect(existsSync(join(dataDir, 'macrobell.db'))).toBe(true);
    await expect
      .poll(async () => (await service.api.listEventDates(thisMonth())).length, { timeout: 10_000 })
      .toBeGreaterThan(0);

    await expect(service.api.clearCredentials()).rejects.toMatchObject({ code: 'keys_required' });
    expect(service.demo).toBe(false);
    await service.api.clearCredentials({ currentPrivateKey: 'live-private' });
    expect(service.demo).toBe(true);
    expect(statuses.at(-1)?.demo).toBe(true);
    expect((await service.api.getCredentials()).configured).toBe(false);
  });

  it('keys the service rejects still switch, and the status says why', async () => {
    const { opts } = await firstStart();
    const service = await createModeSwitchingService(createAppService, opts);
    cleanup.push(() => service.stop());
    await service.start();
    await service.api.setCredentials({ publicKey: 'live-public', privateKey: 'wrong' });
    expect(service.demo).toBe(false);
    const test = await service.api.testConnection();
    expect(test.ok).toBe(false);
    expect(test.scopes.calendar.message).toMatch(/rejected/i);
    expect(test.scopes.calendar.message).not.toContain('wrong');
  });

  it('when the live core cannot start, the demo keeps running and the caller hears why', async () => {
    const { opts } = await firstStart();
    const service = await createModeSwitchingService(async (o) => {
      if (o.mode === 'real') throw new Error('the data folder is read-only');
      return createAppService(o);
    }, opts);
    cleanup.push(() => service.stop());
    await service.start();
    await expect(
      service.api.setCredentials({ publicKey: 'live-public', privateKey: 'live-private' }),
    ).rejects.toThrow(/read-only/);
    expect(service.demo).toBe(true);
    expect((await service.api.listEventDates(thisMonth())).length).toBeGreaterThan(0);
  });

  it('a forced demo (--demo) stays on demo data when keys are saved', async () => {
    const { opts } = await firstStart();
    const service = await createModeSwitchingService(createAppService, { ...opts, mode: 'demo' });
    cleanup.push(() => service.stop());
    await service.api.setCredentials({ publicKey: 'live-public', privateKey: 'live-private' });
    expect(service.demo).toBe(true);
  });
});

/** A keychain that does not answer until unlocked (its service not up yet at login). */
class LateKeychain extends MemorySecretStore {
  locked = true;
  override async available() {
    return this.locked ? { ok: false, error: 'the keyring is locked' } : { ok: true, error: null };
  }
  override async get(name: Parameters<MemorySecretStore['get']>[0]) {
    if (this.locked) throw new Error('the keyring is locked');
    return super.get(name);
  }
}

describe('a keychain that is not ready at login', () => {
  it('shows demo data saying why, then goes live with the stored keys once it answers', async () => {
    const { opts } = await firstStart();
    const keychain = new LateKeychain();
    keychain.locked = false;
    await keychain.set('publicKey', 'live-public');
    await keychain.set('privateKey', 'live-private');
    keychain.locked = true;
    const service = await createModeSwitchingService(
      createAppService,
      { ...opts, secretStore: keychain },
      { keychainRetryMs: [20] },
    );
    cleanup.push(() => service.stop());
    await service.start();
    expect(service.demo).toBe(true);
    const status = await service.api.getStatus();
    expect(status.credentials).toMatchObject({
      keychainAvailable: false,
      keychainError: 'the keyring is locked',
    });

    keychain.locked = false;
    await expect.poll(() => service.demo, { timeout: 10_000 }).toBe(false);
    expect((await service.api.getStatus()).credentials.configured).toBe(true);
    await expect
      .poll(async () => (await service.api.listEventDates(thisMonth())).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
  });
});
