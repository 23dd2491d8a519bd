/**
 * The status the UI shows (src/shared/domain.ts AppStatus), assembled from the sync
 * engine, the token manager, the credentials and the store, and pushed to the hosts at
 * most once a tick.
 */
import type {
  AppStatus,
  CredentialsInfo,
  Scope,
  Settings,
  TokenState,
} from '../../shared/domain.js';
import type { TokenManager } from '../auth/index.js';
import type { SettingsFile } from '../config/settings-file.js';
import type { Store } from '../store/index.js';
import type { SyncEngine } from '../sync/engine.js';

export const SCOPES: Scope[] = ['calendar', 'news'];

export interface StatusSources {
  demo: boolean;
  sync: Pick<SyncEngine, 'getStatus'>;
  tokens: Pick<TokenManager, 'state'>;
  settingsFile: Pick<SettingsFile, 'problem'>;
  effective: () => Settings;
  credentials: () => CredentialsInfo;
  store: Pick<Store, 'countUnreadAlerts' | 'alertLatency'>;
  now: () => number;
  publish: (status: AppStatus) => void;
}

export interface StatusReporter {
  /** The status as of now. */
  current(): AppStatus;
  /** Queue a push of the status; bursts within a tick are one push. */
  push(): void;
  /** Changes that land as the core stops have no one left to tell (and no database). */
  stop(): void;
}

export function createStatusReporter(src: StatusSources): StatusReporter {
  const tokenStates = (): Record<Scope, TokenState> =>
    Object.fromEntries(SCOPES.map((s) => [s, src.tokens.state(s)])) as Record<Scope, TokenState>;

  const current = (): AppStatus => {
    const s = src.sync.getStatus();
    const problem = src.settingsFile.problem;
    const settingsProblem = problem
      ? { source: 'settings', message: problem, at: src.now() }
      : null;
    return {
      demo: src.demo,
      connection: s.connection,
      mode: s.mode,
      online: s.online,
      lastSyncAt: s.lastSyncAt,
      badNotifications: s.badNotifications,
      tokens: tokenStates(),
      credentials: src.credentials(),
      relay: s.relay
        ? {
            url: s.relay.url,
            connected: s.relay.connected,
            node: s.relay.node,
            lastEventId: s.relay.lastEventId,
            lastEventAt: s.relay.lastEventAt,
            lagMs: s.relay.lagMs,
          }
        : null,
      backfill: s.backfill,
      lastError: s.lastError ?? settingsProblem,
      alertsPausedUntil: src.effective().alertRules.pausedUntil,
      unreadAlerts: src.store.countUnreadAlerts(),
      feedLatency: src.store.alertLatency(src.now()),
    };
  };

  let queued = false;
  let stopped = false;
  return {
    current,
    push() {
      // Coalesce bursts of status changes (backfill progress, relay events) into one push a tick.
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        if (!stopped) src.publish(current());
      });
    },
    stop() {
      stopped = true;
    },
  };
}
