/** The desk squawk: prints and consensus read aloud (opt-in, each on its own). */
import type { SquawkSettings } from '../../../../shared/squawk-text.js';
import { useApp } from '../../state/index.js';

const PRINTS: { value: SquawkSettings['prints']; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'watched', label: 'Watched releases' },
  { value: 'watched-and-high', label: 'Watched and every high-impact release' },
];

export function SquawkCard() {
  const squawk = useApp((s) => s.settings?.squawk);
  const update = useApp((s) => s.updateSettings);
  if (!squawk) return null;
  const set = (patch: Partial<SquawkSettings>) => void update({ squawk: { ...squawk, ...patch } });
  const supported = typeof window !== 'undefined' && Boolean(window.speechSynthesis);
  return (
    <section className="card" aria-labelledby="squawk-h">
      <h2 id="squawk-h">Desk squawk</h2>
      <p className="muted">
        Read aloud by your computer&apos;s voice: &ldquo;US Nonfarm Payrolls, 275 thousand,
        consensus 200, beat&rdquo;.
      </p>
      {!supported && <p className="muted">This system has no speech synthesis.</p>}
      <label>
        Read prints aloud
        <select
          value={squawk.prints}
          onChange={(e) => set({ prints: e.target.value as SquawkSettings['prints'] })}
        >
          {PRINTS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={squawk.consensus}
          onChange={(e) => set({ consensus: e.target.checked })}
        />{' '}
        Read the consensus 10 seconds before each watched release
      </label>
    </section>
  );
}
