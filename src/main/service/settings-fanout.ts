/**
 * A settings change, saved, then fanned out to the parts it concerns: new service URLs
 * drop the tokens, a new relay/cultures/polling restarts sync, new alert rules reschedule
 * reminders and bursts, and a desk's watch list goes to its relay.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AlertRules, Settings } from '../../shared/domain.js';
import type { SettingsPatch } from '../../shared/settings-schema.js';
import type { AlertsEngine } from '../alerts/index.js';
import type { TokenManager } from '../auth/index.js';
import { assertServiceUrlChangeAllowed } from '../auth/url-change-guard.js';
import type { SettingsFile } from '../config/settings-file.js';
import type { WatchlistSync } from '../desk/watchlist-sync.js';
import type { SyncEngine } from '../sync/engine.js';

export interface SettingsFanoutDeps {
  settingsFile: Pick<SettingsFile, 'get' | 'update'>;
  /** Settings as the app runs with them (demo/env overrides applied). */
  effective: () => Settings;
  /** Whether service keys are stored (a URL change with stored keys needs care). */
  keysConfigured: () => Promise<boolean>;
  tokens: Pick<TokenManager, 'clear'>;
  sync: Pick<SyncEngine, 'restart' | 'replanBursts'>;
  alerts: Pick<AlertsEngine, 'rescheduleReminders'>;
  /** Desk mode's upload of the watch list to the relay (src/main/desk/watchlist-sync.ts). */
  watchlist: Pick<WatchlistSync, 'changed'>;
  pushStatus: () => void;
  /** Every window (web tabs too) follows a change made in one of them. */
  pushSettings: (settings: Settings) => void;
}

export interface SettingsFanout {
  /** Save a patch, apply it, answer with the settings as shown. */
  update(patch: SettingsPatch): Promise<Settings>;
  setRules(rules: AlertRules): Promise<AlertRules>;
}

export function createSettingsFanout(deps: SettingsFanoutDeps): SettingsFanout {
  const update = async (patch: SettingsPatch): Promise<Settings> => {
    const before = deps.settingsFile.get();
    await assertServiceUrlChangeAllowed(before.serviceUrls, patch.serviceUrls, deps.keysConfigured);
    const next = deps.settingsFile.update(patch);
    // Deep equality, not JSON text: the same settings in another key order are no change.
    const changed = <K extends keyof Settings>(k: K) => !isDeepStrictEqual(before[k], next[k]);
    if (changed('serviceUrls')) deps.tokens.clear();
    if (changed('relayUrl') || changed('cultures') || changed('polling')) await deps.sync.restart();
    if (changed('alertRules') || changed('relayUrl') || changed('connection'))
      deps.watchlist.changed();
    if (changed('alertRules')) {
      deps.alerts.rescheduleReminders();
      deps.sync.replanBursts();
    }
    deps.pushStatus();
    // Settings as shown: demo overrides visible, nothing secret (there is none in settings).
    const shown = deps.effective();
    deps.pushSettings(shown);
    return shown;
  };
  return {
    update,
    setRules: (rules) => update({ alertRules: rules }).then((s) => s.alertRules),
  };
}
