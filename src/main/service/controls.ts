/**
 * What the user changes and reads back: the settings (saved, then fanned out), the
 * credentials in the keychain, and the status — built in that order, the status answering
 * every part's `statusChanged` (connected in service/publish.ts).
 */
import type { AlertsEngine } from '../alerts/index.js';
import type { DeskConnection } from '../auth/desk-token-source.js';
import type { TokenManager } from '../auth/index.js';
import type { SettingsFile } from '../config/settings-file.js';
import type { WatchlistSync } from '../desk/watchlist-sync.js';
import type { SecretStore } from '../secrets/index.js';
import type { SyncEngine } from '../sync/engine.js';
import type { CoreBasics } from './basics.js';
import { createCredentials, readCredentials } from './credentials.js';
import { testMessageFor } from './mode.js';
import { createSettingsFanout } from './settings-fanout.js';
import { createStatusReporter } from './status.js';

export interface ControlsDeps {
  demo: boolean;
  desk: DeskConnection;
  settingsFile: SettingsFile;
  /** The OS keychain (also in demo mode: the user's keys are kept, not used). */
  keychain: SecretStore;
  tokens: TokenManager;
  sync: SyncEngine;
  alerts: AlertsEngine;
  watchlist: WatchlistSync;
}

export async function createControls(basics: CoreBasics, d: ControlsDeps) {
  const { bus } = basics;
  const { settingsFile, keychain, tokens, sync } = d;
  const settings = createSettingsFanout({
    ...d,
    effective: basics.effective,
    keysConfigured: async () => (await readCredentials(keychain)).configured,
    pushStatus: bus.statusChanged,
    pushSettings: (s) => bus.pushes.settings.fire(s),
  });
  const credentials = await createCredentials({
    keychain,
    settingsFile,
    tokens,
    updateSettings: (patch) => settings.update(patch),
    pushStatus: bus.statusChanged,
    testMessage: testMessageFor(d.demo, d.desk),
  });
  const status = createStatusReporter({
    ...basics,
    demo: d.demo,
    sync,
    tokens,
    settingsFile,
    credentials: credentials.cached,
    publish: (s) => bus.pushes.status.fire(s),
  });
  return { settings, credentials, status };
}
