/**
 * The connection state in words, from the status the core pushes (its one connection
 * state, src/shared/connection.ts) and the bridge's own link to the core: the status bar
 * and Settings → Live updates both show this, so they cannot tell different stories.
 */
import { connectionLabel, connectionTone } from '../../../shared/connection.js';
import type { AppStatus } from '../../../shared/domain.js';
import type { Connection } from '../bridge/index.js';

export function connectionState(
  status: AppStatus | null,
  bridge: Connection,
): { tone: 'good' | 'degraded' | 'bad'; label: string; reason: string | null } {
  const conn = status?.connection;
  // Losing the app's own core (web mode's stream) is offline whatever the core last said.
  if (bridge === 'offline') return { tone: 'bad', label: 'Offline', reason: null };
  // A page that has not heard from its core yet is starting, not offline (no red flash).
  if (!conn) return { tone: 'degraded', label: 'Connecting…', reason: null };
  return {
    tone: connectionTone(conn),
    label: connectionLabel(conn, status.demo),
    reason: conn.state === 'live' ? null : conn.reason,
  };
}
