/** The alert rules form: impact, places (the calendar's codes), changes, news, quiet hours. */
import { useEffect, useRef, useState } from 'react';
import {
  ALERTABLE_CHANGES,
  VOLATILITIES,
  type AlertableChange,
  type AlertRules,
} from '../../../../shared/domain.js';
import { COUNTRY_CODES, CURRENCY_CODES } from '../../../../shared/markets.js';
import { useAlerts, useApp, useStores } from '../../state/index.js';
import { CodeChips } from './CodeChips.js';
import { TimeOfDaySelect } from './TimeOfDaySelect.js';

const CHANGE_LABEL: Record<AlertableChange, string> = {
  released: 'printed',
  revised: 'previous print revised',
  corrected: 'corrected',
  rescheduled: 'rescheduled',
  added: 'added',
  removed: 'removed',
};

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
  onChange,
}: {
  label: string;
  value: string[];
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
          setText(e.target.value);
          onChange(list(e.target.value));
        }}
      />
    </label>
  );
}

export function RuleEditor() {
  const { alerts } = useStores();
  const rules = useAlerts((s) => s.rules);
  const hourCycle = useApp((s) => s.settings?.hourCycle ?? 'h23');
  const [draft, setDraft] = useState<AlertRules | null>(rules);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    setDraft(rules);
  }, [rules]);
  // The confirmation sits at the foot of a scrolling card: bring it into view when it changes.
  const savedRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    savedRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [saved]);
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
      <CodeChips
        label="Countries"
        codes={COUNTRY_CODES}
        value={draft.countries}
        flags
        onChange={(countries) => set({ countries })}
      />
      <CodeChips
        label="Currencies"
        codes={CURRENCY_CODES}
        value={draft.currencies}
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
            {CHANGE_LABEL[k]}
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
      <label>
        A print first seen this late is a silent “late print” (minutes)
        <input
          type="number"
          min={1}
          max={1440}
          value={draft.latePrintMinutes}
          onChange={(e) =>
            set({ latePrintMinutes: Math.max(1, Math.min(1440, Number(e.target.value) || 1)) })
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
        <TimeOfDaySelect
          label="From"
          value={draft.quietHours.start}
          hourCycle={hourCycle}
          onChange={(start) => set({ quietHours: { ...draft.quietHours, start } })}
        />
        <TimeOfDaySelect
          label="to"
          value={draft.quietHours.end}
          hourCycle={hourCycle}
          onChange={(end) => set({ quietHours: { ...draft.quietHours, end } })}
        />
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
                () =>
                  setSaved(
                    paused
                      ? 'Alerts resumed.'
                      : 'Alerts paused for 1 hour (shown in the status bar).',
                  ),
                (err: Error) => setSaved(err.message),
              )
          }
        >
          {paused ? 'Resume alerts' : 'Pause for 1 hour'}
        </button>
        {saved && (
          <span role="status" className="rules-saved" ref={savedRef}>
            {saved}
          </span>
        )}
      </div>
    </form>
  );
}
