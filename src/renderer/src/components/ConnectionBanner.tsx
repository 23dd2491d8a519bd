/**
 * The banner over every screen when the feed is not simply live: offline (cached data
 * shown), reconnecting, the relay node behind (its heartbeats come, its events do not), webhooks late (the safety net carries the feed), or the API
 * unavailable while its webhooks still arrive (prints still alert). Its words come
 * from the same connection state as the status bar and the tray.
 */
import type { AppStatus, ConnectionState, Settings } from '../../../shared/domain.js';
import { ago, dateTimeLabel } from '../lib/time.js';
import { useNow } from '../lib/use-now.js';

const BANNER_WORDS: Partial<Record<ConnectionState, string>> = {
  behind: 'Relay behind',
  late: 'Webhooks late',
  reconnecting: 'Reconnecting',
  apiDown: 'API unavailable',
};

export function ConnectionBanner(props: {
  status: AppStatus | null;
  bridgeOffline: boolean;
  settings: Settings | null;
}) {
  const { status, settings } = props;
  const now = useNow(1000);
  const at = (ms: number) =>
    dateTimeLabel(
      new Date(ms).toISOString(),
      settings?.timeZone ?? 'system',
      settings?.hourCycle ?? 'h23',
    );
  const lastAnswer = status?.lastSyncAt
    ? ` from ${at(status.lastSyncAt)} (${ago(status.lastSyncAt, now)})`
    : '';
  if (props.bridgeOffline) {
    return (
      <div className="offline-banner" data-testid="offline-banner" role="alert">
        Offline — showing cached data{lastAnswer}. Macrobell reconnects by itself.
      </div>
    );
  }
  const creds = status?.credentials;
  if (status?.demo && creds && !creds.keychainAvailable) {
    // Demo data because the keychain did not answer (locked at login), not for lack of keys.
    return (
      <div
        className="notice-banner"
        data-testid="keychain-banner"
        role="status"
        title={creds.keychainError ?? undefined}
      >
        Demo data: the keychain does not answer, so saved keys cannot be read (Settings → Keys says
        why). Macrobell switches to them as soon as it does.
      </div>
    );
  }
  const c = status?.connection;
  if (!c || c.state === 'live' || c.state === 'connecting') return null;
  if (c.state === 'offline') {
    return (
      <div className="offline-banner" data-testid="offline-banner" role="alert">
        Offline since {at(c.since)} — {c.reason ?? 'the service does not answer'}. Showing cached
        data{lastAnswer}. Macrobell reconnects by itself.
      </div>
    );
  }
  return (
    <div className="notice-banner" data-testid="connection-banner" role="status">
      {BANNER_WORDS[c.state]} since {at(c.since)}: {c.reason}.
    </div>
  );
}
