/**
 * The connection state in words, from the status the core pushes: the status bar and
 * Settings → Live updates both show this, so they cannot tell different stories.
 */
import type { AppStatus, ConnectionMode } from '../../../shared/domain.js';
import type { Connection } from '../bridge/index.js';

const MODE_LABEL: Record<ConnectionMode, string> = {
  relay: 'Relay',
  polling: 'Polling',
  offline: 'Offline',
};

export function connectionState(
  status: AppStatus | null,
  connection: Connection,
): { mode: ConnectionMode; label: string } {
  const mode = connection === 'offline' ? 'offline' : (status?.mode ?? 'offline');
  // demo data arrives by the simulator's webhooks, not by polling
  const label = status?.demo && mode !== 'offline' ? 'Live (demo webhooks)' : MODE_LABEL[mode];
  return { mode, label };
}
