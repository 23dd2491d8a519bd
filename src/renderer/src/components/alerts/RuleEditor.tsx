/** The alert rules form: impact, places (the calendar's codes), changes, news, quiet hours. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
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

/** A patch to the rules being edited. */
type SetRules = (patch: Partial<AlertRules>) => void;

/** A whole number of minutes in [min, max]: what is typed is clamped, a blank reads as `min`. */
function MinutesInput({
  label,
  value,
  min,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  onChange: (minutes: number) => void;
}) {
  const max = 1440;
  return (
    <label>
      {label}
      <input
        type="number"
        min={min}
        max={max}
        value={value}
        onChange={(e) => onChange(Math.max(min, Math.min(max, Number(e.target.value) || min)))}
      />
    </label>
  );
}

function ChangesFieldset({ draft, set }: { draft: AlertRules; set: SetRules }) {
  return (
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
  );
}

/** Impact, places and changes: which releases alert. */
function ReleaseRules({ draft, set }: { draft: AlertRules; set: SetRules }) {
  return (
    <>
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
      <ChangesFieldset draft={draft} set={set} />
      <MinutesInput
        label="Reminder before watched releases (minutes, 0 = off)"
        value={draft.reminderMinutes}
        min={0}
        onChange={(reminderMinutes) => set({ reminderMinutes })}
      />
      <MinutesInput
        label="A print first seen this late is a silent “late print” (minutes)"
        value={draft.latePrintMinutes}
        min={1}
        onChange={(latePrintMinutes) => set({ latePrintMinutes })}
      />
    </>
  );
}

function NewsFieldset({ draft, set }: { draft: AlertRules; set: SetRules }) {
  return (
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
  );
}

function QuietHoursFieldset({ draft, set }: { draft: AlertRules; set: SetRules }) {
  const hourCycle = useApp((s) => s.settings?.hourCycle ?? 'h23');
  const quiet = draft.quietHours;
  return (
    <fieldset>
      <legend>Quiet hours (notifications stay silent)</legend>
      <label className="inline">
        <input
          type="checkbox"
          checked={quiet.enabled}
          onChange={(e) => set({ quietHours: { ...quiet, enabled: e.target.checked } })}
        />{' '}
        On
      </label>
      <TimeOfDaySelect
        label="From"
        value={quiet.start}
        hourCycle={hourCycle}
        onChange={(start) => set({ quietHours: { ...quiet, start } })}
      />
      <TimeOfDaySelect
        label="to"
        value={quiet.end}
        hourCycle={hourCycle}
        onChange={(end) => set({ quietHours: { ...quiet, end } })}
      />
    </fieldset>
  );
}

/** The rules being edited, and the last outcome to show ("Saved.", an error). */
function useRuleDraft() {
  const rules = useAlerts((s) => s.rules);
  const [draft, setDraft] = useState<AlertRules | null>(rules);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    setDraft(rules);
  }, [rules]);
  const set: SetRules = (patch) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setSaved(null);
  };
  return { draft, set, saved, setSaved };
}

/** Save, pause or resume, and the outcome (brought into view: it sits at a scrolling card's foot). */
function RuleActions({
  paused,
  saved,
  onPause,
}: {
  paused: boolean;
  saved: string | null;
  onPause: () => void;
}) {
  const savedRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    savedRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [saved]);
  return (
    <div className="actions">
      <button type="submit" className="primary">
        Save rules
      </button>
      <button type="button" onClick={onPause}>
        {paused ? 'Resume alerts' : 'Pause for 1 hour'}
      </button>
      {saved && (
        <span role="status" className="rules-saved" ref={savedRef}>
          {saved}
        </span>
      )}
    </div>
  );
}

function RulesForm({ onSave, children }: { onSave: () => void; children: ReactNode }) {
  return (
    <form
      className="rules card"
      aria-label="Alert rules"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <h2>Rules</h2>
      {children}
    </form>
  );
}

export function RuleEditor() {
  const { alerts } = useStores();
  const { draft, set, saved, setSaved } = useRuleDraft();
  if (!draft) return null;
  const save = () =>
    alerts
      .getState()
      .saveRules(draft)
      .then(
        () => setSaved('Saved.'),
        (err: Error) => setSaved(err.message),
      );
  const paused = draft.pausedUntil !== null && draft.pausedUntil > Date.now();
  const pause = () =>
    void alerts
      .getState()
      .pause(paused ? null : Date.now() + 3_600_000)
      .then(
        () =>
          setSaved(
            paused ? 'Alerts resumed.' : 'Alerts paused for 1 hour (shown in the status bar).',
          ),
        (err: Error) => setSaved(err.message),
      );
  return (
    <RulesForm onSave={() => void save()}>
      <ReleaseRules draft={draft} set={set} />
      <NewsFieldset draft={draft} set={set} />
      <QuietHoursFieldset draft={draft} set={set} />
      <RuleActions paused={paused} saved={saved} onPause={pause} />
    </RulesForm>
  );
}
