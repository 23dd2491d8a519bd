import { useEffect } from 'react';
import type { AlertRecord } from '../../../shared/domain.js';
import { dateTimeLabel, dayKey, renderTimes, timeLabel } from '../lib/time.js';
import { useAlerts, useApp, useStores } from '../state/index.js';
import { AlertReceipt } from './alerts/AlertReceipt.js';
import { RuleEditor } from './alerts/RuleEditor.js';

export function Alerts() {
  const { alerts, app } = useStores();
  const items = useAlerts((s) => s.items);
  const settings = useApp((s) => s.settings);
  useEffect(() => {
    void alerts
      .getState()
      .load()
      .catch(() => undefined);
  }, [alerts]);
  const unread = items.filter((a) => !a.read).length;
  const zone = settings?.timeZone ?? 'system';
  const hourCycle = settings?.hourCycle ?? 'h23';
  return (
    <section className="alerts-screen" aria-label="Alerts">
      <header className="screen-header">
        <h1>Alerts</h1>
        <button
          type="button"
          onClick={() => void alerts.getState().markAllRead()}
          disabled={unread === 0}
        >
          Mark all read
        </button>
      </header>
      <div className="alerts-body">
        <ul className="alert-list card" aria-label="Alert history">
          {items.length === 0 && (
            <li className="muted pad">
              No alerts yet. They appear here when a release you follow prints.
            </li>
          )}
          {items.map((a) => (
            <li key={a.id} className={a.read ? 'read' : 'unread'}>
              <button
                type="button"
                onClick={() => {
                  if (!a.read) void alerts.getState().markRead(a.id);
                  app.getState().navigate(a.target);
                }}
              >
                <span className="alert-title">
                  {!a.read && <span className="unread-dot" aria-hidden="true" />}
                  {!a.read && <span className="sr-only">Unread: </span>}
                  {renderTimes(a.title, zone, hourCycle)}
                </span>
                {/* times in alert texts follow today's zone and clock, not the day they were written */}
                <span className="alert-body">{renderTimes(a.body, zone, hourCycle)}</span>
                <span className="meta">
                  {a.late && <span className="late-badge">Late print · silent · </span>}
                  {metaTimes(a, zone, hourCycle)}
                </span>
              </button>
              {a.receipt && <AlertReceipt receipt={a.receipt} zone={zone} hourCycle={hourCycle} />}
            </li>
          ))}
        </ul>
        <RuleEditor />
      </div>
    </section>
  );
}

/**
 * "released · 9 Dec 2026, 19:00" when the alert came at the print. A late print says both
 * times, "released 9 Dec 2026, 19:00 · seen 19:20": when it was seen is not when it printed.
 */
function metaTimes(a: AlertRecord, zone: string, hourCycle: 'h12' | 'h23'): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const seen = dateTimeLabel(iso(a.createdAt), zone, hourCycle);
  const releasedAt = a.late ? (a.receipt?.printAt ?? a.receipt?.scheduledAt ?? null) : null;
  if (releasedAt === null) return `${a.kind} · ${seen}`;
  const sameDay = dayKey(iso(releasedAt), zone) === dayKey(iso(a.createdAt), zone);
  const seenAt = sameDay ? timeLabel(iso(a.createdAt), zone, hourCycle) : seen;
  return `${a.kind} ${dateTimeLabel(iso(releasedAt), zone, hourCycle)} · seen ${seenAt}`;
}
