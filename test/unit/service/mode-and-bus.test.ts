// @clock any-day — it reads the demo schedule of the day it runs; CI runs it on the clock matrix
/** The core's mode choice, the settings it runs with, and its bus — each alone, no core started. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/domain.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { CorePushes } from '../../../src/main/service/bus.js';
import { chooseMode, effectiveSettings } from '../../../src/main/service/mode.js';
import type { DemoMarket } from '../../../src/main/demo.js';

const file = (s: Partial<Settings> = {}) => ({ get: () => ({ ...DEFAULT_SETTINGS, ...s }) });

async function keychain(keys: boolean): Promise<MemorySecretStore> {
  const store = new MemorySecretStore();
  if (keys) {
    await store.set('publicKey', 'pub');
    await store.set('privateKey', 'priv');
  }
  return store;
}

describe('chooseMode', () => {
  it('auto: demo without keys, live with them, live in desk mode without keys', async () => {
    const settingsFile = file();
    const choose = async (keys: boolean, env: NodeJS.ProcessEnv = {}, s = settingsFile) =>
      (await chooseMode({ mode: 'auto', keychain: await keychain(keys), settingsFile: s, env }))
        .demo;
    expect(await choose(false)).toBe(true);
    expect(await choose(true)).toBe(false);
    expect(await choose(false, {}, file({ connection: 'desk' }))).toBe(false);
    const deskEnv = { MACROBELL_RELAY_URL: 'https://relay.example', MACROBELL_RELAY_TOKEN: 't' };
    expect(await choose(false, deskEnv)).toBe(false);
  });

  it('a forced mode wins over the keys', async () => {
    const settingsFile = file();
    const demo = await chooseMode({
      mode: 'demo',
      keychain: await keychain(true),
      settingsFile,
      env: {},
    });
    expect(demo.demo).toBe(true);
    const real = await chooseMode({
      mode: 'real',
      keychain: await keychain(false),
      settingsFile,
      env: {},
    });
    expect(real.demo).toBe(false);
  });
});

describe('effectiveSettings', () => {
  it('points the demo at the simulator and drops the relay, without saving either', async () => {
    const settingsFile = file({ relayUrl: 'https://relay.example' });
    const { desk } = await chooseMode({
      mode: 'demo',
      keychain: await keychain(false),
      settingsFile,
      env: {},
    });
    const simulator = {
      authUrl: 'http://127.0.0.1:1/auth',
      calendarUrl: 'http://127.0.0.1:1/cal',
      newsUrl: 'http://127.0.0.1:1/news',
    } as DemoMarket;
    const shown = effectiveSettings({ settingsFile, simulator, desk, env: {} })();
    expect(shown.serviceUrls).toEqual({
      auth: simulator.authUrl,
      calendar: simulator.calendarUrl,
      news: simulator.newsUrl,
    });
    expect(shown.relayUrl).toBeNull();
    expect(settingsFile.get().relayUrl).toBe('https://relay.example');
    const live = effectiveSettings({ settingsFile, simulator: undefined, desk, env: {} })();
    expect(live.relayUrl).toBe('https://relay.example');
  });
});

describe('CorePushes', () => {
  it('delivers pushes and status requests to listeners until they unsubscribe', () => {
    const bus = new CorePushes();
    const seen: string[] = [];
    const off = bus.onStatusWanted(() => seen.push('status'));
    bus.pushes.alertsRead.event(({ ids }) => seen.push(`read ${String(ids)}`));
    bus.statusChanged();
    bus.pushes.alertsRead.fire({ ids: [1, 2] });
    off.dispose();
    bus.statusChanged();
    expect(seen).toEqual(['status', 'read 1,2']);
  });
});
