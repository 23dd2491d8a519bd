/**
 * Which service this core talks to: the demo (the embedded simulator, its own keys and
 * database), the service with the keychain's keys, or a desk relay's gateway (live, no
 * keys here) — and the settings it runs with, overrides that are never saved included.
 */
import type { Scope, Settings } from '../../shared/domain.js';
import { createDeskConnection, type DeskConnection } from '../auth/desk-token-source.js';
import { applyEnvOverrides, type SettingsFile } from '../config/settings-file.js';
import { startDemoMarket, type DemoMarket } from '../demo.js';
import type { Logger } from '../../node/log/logger.js';
import { MemorySecretStore, type SecretStore } from '../secrets/index.js';

export interface ModeChoice {
  /** auto: demo when no keys are stored and no desk relay is set up. */
  mode: 'auto' | 'demo' | 'real';
  keychain: SecretStore;
  settingsFile: Pick<SettingsFile, 'get'>;
  env: NodeJS.ProcessEnv;
}

export async function chooseMode(c: ModeChoice): Promise<{ demo: boolean; desk: DeskConnection }> {
  const keychainStatus = await c.keychain.available();
  const keysStored =
    keychainStatus.ok &&
    Boolean((await c.keychain.get('publicKey')) && (await c.keychain.get('privateKey')));
  // Desk mode (tokens from the desk relay, no keys here) is live too.
  const desk = createDeskConnection({
    settings: () => applyEnvOverrides(c.settingsFile.get(), c.env),
    env: c.env,
    keychainToken: () => c.keychain.get('relayToken'),
    keysStored,
  });
  const demo = c.mode === 'demo' || (c.mode === 'auto' && !keysStored && !desk.isDesk());
  return { demo, desk };
}

export interface DemoSetup {
  simulator: DemoMarket;
  /** The simulator's own keys, in memory: the keychain's are never used in demo mode. */
  secrets: SecretStore;
}

export async function startDemo(
  opts: { speed?: number; seed?: number; autoplay?: boolean } = {},
  logger: Logger,
): Promise<DemoSetup> {
  const simulator = await startDemoMarket({
    seed: opts.seed ?? 1,
    speed: opts.speed ?? 1,
    autoplay: opts.autoplay ?? true,
  });
  logger.info({ url: simulator.url }, 'demo mode: embedded simulator started');
  const secrets = new MemorySecretStore();
  await secrets.set('publicKey', simulator.clientId);
  await secrets.set('privateKey', simulator.clientSecret);
  return { simulator, secrets };
}

/** What the app runs with: the file's settings, with demo/env overrides that are never saved. */
export function effectiveSettings(o: {
  settingsFile: Pick<SettingsFile, 'get'>;
  simulator: DemoMarket | undefined;
  desk: DeskConnection;
  env: NodeJS.ProcessEnv;
}): () => Settings {
  const { settingsFile, simulator, desk, env } = o;
  return () => {
    const s = settingsFile.get();
    if (!simulator) return desk.view(applyEnvOverrides(s, env));
    const { authUrl: auth, calendarUrl: calendar, newsUrl: news } = simulator;
    return { ...s, serviceUrls: { auth, calendar, news }, relayUrl: null };
  };
}

/** What a passed "Test connection" says: in demo mode the keys tested are the simulator's. */
export function testMessageFor(demo: boolean, desk: DeskConnection) {
  return (scope: Scope): string | undefined =>
    demo
      ? `Demo mode: the built-in simulator accepted its own demo keys for ${scope}. Saved keys are not tested or used in demo mode.`
      : desk.testMessage(scope);
}
