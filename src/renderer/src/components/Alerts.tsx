import { useEffect, useState } from 'react';
import { ALERTABLE_CHANGES, VOLATILITIES, type AlertRules } from '../../../shared/domain.js';
import { dateTimeLabel, renderTimes } from '../lib/time.js';
import { useAlerts, useApp, useStores } from '../state/index.js';

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A comma-separated list field: keeps what the user types (trailing commas included) and
 * reports the parsed list; it only rewrites its text when the list changes from outside. */
function ListInput({
  label,
  value,
  upper = false,
  onChange,
}: {
  label: string;
  value: string[];
  upper?: boolean;
  onChange: (list: string[]) => void;
}) {
  const [text, setText] = useState(value.join(', '));
  const joined = value.join(', ');
  useEffect(() => {
    setText((t) => (list(t).join(', ') === joined ? t : joined));
  }, [joined]);
  return (
    <label>
      {label}
      <input
        value={text}
        onChange={(e) => {
          const t = upper ? e.target.value.toUpperCase() : e.target.value;
          setText(t);
          onChange(list(t));
        }}
      />
    </label>
  );
}

function RuleEditor() {
  const { alerts } = useStores();
  const rules = useAlerts((s) => s.rules);
  const [draft, setDraft] = useState<AlertRules | null>(rules);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => setDraft(rules), [rules]);
  if (!draft) return null;
  const set = (patch: Partial<AlertRules>) => {
    setDraft({ ...draft, ...patch });
    setSaved(null);
  };
  const save = async () => {
    try {
      await alerts.getState().saveRules(draft);
      setSaved('Saved.');
    } catch (err) {
      setSaved((err as Error).message);
    }
  };
  const paused = draft.pausedUntil !== null && draft.pausedUntil > Date.now();
  return (
    <form
      className="rules card"
      aria-label="Alert rules"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>Rules</h2>
      <label>
        Minimum impact
        <select
          value={draft.minVolatility}
          onChange={(e) => set({ minVolatility: e.target.value as AlertRules['minVolatility'] })}
        >
          {VOLATILITIES.map((v) => (
            <option key={v} value={v}>
              {v.toLowerCase()}
            </option>
          ))}
        </select>
      </label>
      <ListInput
        label="Countries (comma-separated, e.g. US, EMU; empty = all)"
        value={draft.countries}
        upper
        onChange={(countries) => set({ countries })}
      />
      <ListInput
        label="Currencies (comma-separated, e.g. USD, EUR; empty = all)"
        value={draft.currencies}
        upper
        onChange={(currencies) => set({ currencies })}
      />
      <fieldset>
        <legend>Alert when a release is…</legend>
        {ALERTABLE_CHANGES.map((k) => (
          <label key={k} className="inline">
            <input
              type="checkbox"
              checked={draft.changes[k]}
              onChange={(e) => set({ changes: { ...draft.changes, [k]: e.target.checked } })}
            />{' '}
            {k}
          </label>
        ))}
      </fieldset>
      <label>
        Reminder before watched releases (minutes, 0 = off)
        <input
          type="number"
          min={0}
          max={1440}
          value={draft.reminderMinutes}
          onChange={(e) =>
            set({ reminderMinutes: Math.max(0, Math.min(1440, Number(e.target.value) || 0)) })
          }
        />
      </label>
      <fieldset>
        <legend>News</legend>
        <label className="inline">
          <input
            type="checkbox"
            checked={draft.newsEnabled}
            onChange={(e) => set({ newsEnabled: e.target.checked })}
          />{' '}
          Alert on news
        </label>
        <ListInput
          label="Keywords"
          value={draft.newsKeywords}
          onChange={(newsKeywords) => set({ newsKeywords })}
        />
        <ListInput
          label="Categories or tags"
          value={draft.newsCategories}
          onChange={(newsCategories) => set({ newsCategories })}
        />
      </fieldset>
      <fieldset>
        <legend>Quiet hours (notifications stay silent)</legend>
        <label className="inline">
          <input
            type="checkbox"
            checked={draft.quietHours.enabled}
            onChange={(e) =>
              set({ quietHours: { ...draft.quietHours, enabled: e.target.checked } })
            }
          />{' '}
          On
        </label>
        <label className="inline">
          From{' '}
          <input
            type="time"
            value={draft.quietHours.start}
            onChange={(e) => set({ quietHours: { ...draft.quietHours, start: e.target.value } })}
          />
        </label>
        <label className="inline">
          to{' '}
          <input
            type="time"
            value={draft.quietHours.end}
            onChange={(e) => set({ quietHours: { ...draft.quietHours, end: e.target.value } })}
          />
        </label>
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary">
          Save rules
        </button>
        <button
          type="button"
          onClick={() =>
            void alerts
              .getState()
              .pause(paused ? null : Date.now() + 3_600_000)
              .then(
                () => setSaved(paused ? 'Alerts resumed.' : 'Alerts paused for 1 hour.'),
                (err: Error) => setSaved(err.message),
              )
          }
        >
          {paused ? 'Resume alerts' : 'Pause for 1 hour'}
        </button>
        {saved && <span role="status">{saved}</span>}
      </div>
    </form>
  );
}

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
                  {a.kind} · {dateTimeLabel(new Date(a.createdAt).toISOString(), zone, hourCycle)}
                </span>
              </button>
            </li>
          ))}
        </ul>
        <RuleEditor />
      </div>
    </section>
  );
}
