/**
 * A time of day ("22:00") chosen in the app's clock (24-hour or 12-hour setting), not the
 * browser's locale as `<input type="time">` would: every quarter hour, plus the stored
 * value when it is off that grid.
 */
const QUARTERS = Array.from({ length: 96 }, (_, i) => {
  const h = Math.floor(i / 4);
  const m = (i % 4) * 15;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
});

/** `22:00` → `22:00` (h23) or `10:00 PM` (h12). */
function clockLabel(hhmm: string, hourCycle: 'h12' | 'h23'): string {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  const mm = String(m).padStart(2, '0');
  if (hourCycle === 'h23') return `${String(h).padStart(2, '0')}:${mm}`;
  return `${h % 12 === 0 ? 12 : h % 12}:${mm} ${h < 12 ? 'AM' : 'PM'}`;
}

export function TimeOfDaySelect({
  label,
  value,
  hourCycle,
  onChange,
}: {
  label: string;
  value: string;
  hourCycle: 'h12' | 'h23';
  onChange: (hhmm: string) => void;
}) {
  const options = QUARTERS.includes(value) ? QUARTERS : [...QUARTERS, value].sort();
  return (
    <label className="inline">
      {label}{' '}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((t) => (
          <option key={t} value={t}>
            {clockLabel(t, hourCycle)}
          </option>
        ))}
      </select>
    </label>
  );
}
