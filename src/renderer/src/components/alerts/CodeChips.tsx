/**
 * Pick country or currency codes from the calendar's chips; codes only, so a rule cannot name
 * something no release carries. Codes saved before (an old "USA") are shown as unknown, with
 * a way to remove them, instead of silently never matching.
 */
import { Flag } from '../Flag.js';

export function CodeChips({
  label,
  codes,
  value,
  flags = false,
  onChange,
}: {
  label: string;
  codes: readonly string[];
  value: string[];
  flags?: boolean;
  onChange: (next: string[]) => void;
}) {
  const unknown = value.filter((c) => !codes.includes(c));
  const toggle = (code: string) =>
    onChange(value.includes(code) ? value.filter((c) => c !== code) : [...value, code]);
  return (
    <fieldset className="code-chips">
      <legend>
        {label}{' '}
        <span className="muted">({value.length === 0 ? 'none picked: all' : 'only these'})</span>
      </legend>
      <div className="chip-group" role="group" aria-label={label}>
        {codes.map((code) => (
          <button
            key={code}
            type="button"
            className="chip"
            aria-pressed={value.includes(code)}
            onClick={() => toggle(code)}
          >
            {flags && <Flag code={code} />}
            {code}
          </button>
        ))}
      </div>
      {unknown.length > 0 && (
        <p className="notice error" role="alert">
          {unknown.map((c) => `"${c}"`).join(', ')}{' '}
          {unknown.length === 1 ? 'is not a code' : 'are not codes'} Macrobell knows, so{' '}
          {unknown.length === 1 ? 'it' : 'they'} never match.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => onChange(value.filter((c) => codes.includes(c)))}
          >
            Remove
          </button>
        </p>
      )}
    </fieldset>
  );
}
