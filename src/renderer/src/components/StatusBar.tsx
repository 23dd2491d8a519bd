import { useEffect, useState } from 'react';
import type { AppStatus } from '../../../shared/domain.js';
import type { Scope } from '../../../shared/domain.js';
import { connectionState } from '../lib/connection-label.js';
import { ago, timeLabel } from '../lib/time.js';
import { useNow } from '../lib/use-now.js';
import { rememberedLastAnswer, rememberLastAnswer } from '../lib/last-answer.js';
import { useAlerts, useApp, useStores } from '../state/index.js';

/** "Alerts paused until 18:20" while a pause runs: Live alone would say alerts get through. */
function PausedNote({ now }: { now: number }) {
  const settings = useApp((s) => s.settings);
  const rules = useAlerts((s) => s.rules) ?? settings?.alertRules;
  const until = rules?.pausedUntil ?? null;
  if (until === null || until <= now) return null;
  const at = timeLabel(
    new Date(until).toISOString(),
    settings?.timeZone ?? 'system',
    settings?.hourCycle ?? 'h23',
  );
  return (
    <span className="status-note" data-testid="alerts-paused">
      <span className="sep">·</span>
      Alerts paused until {at}
    </span>
  );
}

/**
 * "Last answer 3m ago": the core's time once its status is here, before that the time this
 * window last saw (nothing when it saw none: "never" is the core's to say).
 */
function LastAnswer({ status, now }: { status: AppStatus | null; now: number }) {
  const [remembered] = useState(rememberedLastAnswer);
  const at = status ? status.lastSyncAt : remembered;
  useEffect(() => {
    rememberLastAnswer(status?.lastSyncAt ?? null);
  }, [status?.lastSyncAt]);
  if (!status && at === null) return null;
  return (
    <>
      <span className="sep">·</span>
      <span data-testid="last-answer">Last answer {ago(at, now)}</span>
    </>
  );
}

/** How often the status is read again, so "Last answer … ago" follows the answers. */
const STATUS_REFRESH_MS = 15_000;

export function StatusBar() {
  const { app } = useStores();
  const status = useApp((s) => s.status);
  const backfill = useApp((s) => s.backfill);
  const bridge = useApp((s) => s.connection);
  const now = useNow(1000);
  useEffect(() => {
    const t = setInterval(
      () =>
        void app
          .getState()
          .refreshStatus()
          .catch(() => undefined),
      STATUS_REFRESH_MS,
    );
    return () => clearInterval(t);
  }, [app]);
  const { tone, label, reason } = connectionState(status, bridge);
  return (
    <footer className="status-bar" data-testid="status-bar" role="status" aria-live="polite">
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      <span data-testid="connection-label" title={reason ?? undefined}>
        {label}
      </span>
      <PausedNote now={now} />
      <LastAnswer status={status} now={now} />
      {status &&
        (['calendar', 'news'] as Scope[]).map((s) => (
          <span key={s} className="token" title={`${s} token: ${status.tokens[s]}`}>
            <span className="sep">·</span>
            {s} token: {status.tokens[s]}
          </span>
        ))}
      {status?.relay && (
        <span>
          <span className="sep">·</span>relay{' '}
          {status.relay.connected ? 'connected' : 'disconnected'}
          {status.relay.lagMs !== null ? ` (lag ${Math.round(status.relay.lagMs)} ms)` : ''}
        </span>
      )}
      {(status?.badNotifications ?? 0) > 0 && (
        <span title="Notifications that could not be applied were skipped; see the log">
          <span className="sep">·</span>
          {status?.badNotifications} skipped
        </span>
      )}
      {backfill?.running && (
        <span className="progress-wrap">
          <span className="sep">·</span>
          <label htmlFor="backfill-progress">{backfill.phase}</label>
          <progress id="backfill-progress" max={backfill.total || 1} value={backfill.done} />
        </span>
      )}
      {reason && <span className={`status-${tone === 'bad' ? 'error' : 'note'}`}>{reason}</span>}
    </footer>
  );
}
