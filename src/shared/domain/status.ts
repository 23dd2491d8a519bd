/** The app's status as every surface shows it: connection, tokens, credentials, cache. */
import type { FeedLatency } from './alerts.js';
import type { Scope } from './calendar.js';

export type TokenState = 'none' | 'valid' | 'refreshing' | 'error';

export type ConnectionMode = 'relay' | 'polling' | 'offline';

/**
 * The one connection state every surface shows (banner, status bar, tray, status API):
 * - `connecting`: starting, nothing has answered yet;
 * - `live`: the service answers and the live transport works;
 * - `late`: the service answers but webhooks are missing: the safety net is carrying it;
 * - `reconnecting`: the relay stream is down and being re-established (the safety net runs);
 * - `apiDown`: the service's API fails but its webhooks still arrive: prints still alert;
 * - `offline`: the service cannot be reached (or refuses our keys); cached data shown.
 */
export type ConnectionState =
  'connecting' | 'live' | 'behind' | 'late' | 'reconnecting' | 'apiDown' | 'offline';

/** How live updates arrive: the relay's stream, the service's webhooks direct (demo), or polls. */
export type LiveTransport = 'relay' | 'webhooks' | 'polling';

export interface ConnectionInfo {
  state: ConnectionState;
  transport: LiveTransport;
  /** One sentence for people: why the state is what it is (null when live). */
  reason: string | null;
  /** Unix ms: when this state began. */
  since: number;
}

export interface BackfillProgress {
  running: boolean;
  phase: string;
  done: number;
  total: number;
}

export interface StatusError {
  source: string;
  message: string;
  at: number;
}

export interface AppStatus {
  demo: boolean;
  /** The one source of truth for what the connection is doing; `mode`/`online` derive from it. */
  connection: ConnectionInfo;
  mode: ConnectionMode;
  online: boolean;
  /** Unix ms: the last time the service answered (any request). */
  lastSyncAt: number | null;
  /** Notifications that could not be applied (malformed): skipped, logged and counted. */
  badNotifications: number;
  tokens: Record<Scope, TokenState>;
  credentials: CredentialsInfo;
  relay: {
    url: string;
    connected: boolean;
    /** Which relay node of the list the stream is on now (null while connecting). */
    node: string | null;
    lastEventId: string | null;
    lastEventAt: number | null;
    lagMs: number | null;
  } | null;
  backfill: BackfillProgress | null;
  lastError: StatusError | null;
  alertsPausedUntil: number | null;
  unreadAlerts: number;
  /** Print → alert over the last day, by path (releases only). */
  feedLatency: FeedLatency[];
}

/** What the renderer may know about stored keys: never the keys themselves. */
export interface CredentialsInfo {
  configured: boolean;
  /** e.g. "demo…blic" — enough to recognise, useless to steal. */
  maskedPublicKey: string | null;
  relayTokenConfigured: boolean;
  /** False when the OS keychain cannot be reached. */
  keychainAvailable: boolean;
  keychainError: string | null;
}

export interface ConnectionTestResult {
  ok: boolean;
  scopes: Record<Scope, { ok: boolean; message: string }>;
}

export interface CacheInfo {
  dataDir: string;
  databaseBytes: number;
  eventDates: number;
  posts: number;
}
