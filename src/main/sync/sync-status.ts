/**
 * The sync status as the app shows it, assembled in one place from the connection state,
 * the service's health, the relay's stream and the backfill: read once per burst of
 * changes (the engine only signals that something changed).
 */
import type {
  BackfillProgress,
  ConnectionInfo,
  ConnectionMode,
  StatusError,
} from '../../shared/domain.js';
import type { RelayStatus } from './live-source.js';
import type { HealthSnapshot } from './service-health.js';

export interface SyncStatus {
  connection: ConnectionInfo;
  mode: ConnectionMode;
  online: boolean;
  lastSyncAt: number | null;
  backfill: BackfillProgress | null;
  lastError: StatusError | null;
  relay: (RelayStatus & { url: string }) | null;
  badNotifications: number;
}

interface StatusParts {
  connection: ConnectionInfo;
  health: HealthSnapshot;
  relay: (RelayStatus & { url: string }) | null;
  backfill: BackfillProgress | null;
  /** When the last backfill finished, as stored (a previous run's, before any request). */
  storedBackfillAt: string | null;
  badNotifications: number;
}

export function assembleSyncStatus(p: StatusParts): SyncStatus {
  const { connection, health, relay } = p;
  return {
    connection,
    mode: connection.state === 'offline' ? 'offline' : relay ? 'relay' : 'polling',
    online: connection.state !== 'offline',
    lastSyncAt: health.lastOkAt ?? (p.storedBackfillAt ? Number(p.storedBackfillAt) : null),
    backfill: p.backfill,
    lastError:
      health.failingSince !== null && health.error
        ? { source: 'service', message: health.error, at: health.failingSince }
        : null,
    relay: relay
      ? {
          url: relay.url,
          connected: relay.connected,
          node: relay.node,
          lastEventId: relay.lastEventId,
          lastEventAt: relay.lastEventAt,
          lagMs: relay.lagMs,
          error: relay.error,
        }
      : null,
    badNotifications: p.badNotifications,
  };
}
