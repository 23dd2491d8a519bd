/** News windows: no trading from N minutes before to N minutes after the covered releases. */
import { VOLATILITIES, type Volatility } from '../../../../shared/domain.js';
import type { NewsWindowSettings } from '../../../../shared/news-windows.js';
import { useApp } from '../../state/index.js';

const IMPACT_LABEL: Record<Volatility, string> = {
  HIGH: 'High',
  MEDIUM: 'Medium',
  LOW: 'Low',
  NONE: 'None',
};

function Minutes(props: { label: string; value: number; onChange: (n: number) => void }) {
  return (
    <label>
      {props.label}
      <input
        type="number"
        min={0}
        max={120}
        step={1}
        value={props.value}
        onChange={(e) => {
          const n = Number(e.target.value);
          if (Number.isInteger(n) && n >= 0 && n <= 120) props.onChange(n);
        }}
      />
    </label>
  );
}

export function NewsWindowCard() {
  const nw = useApp((s) => s.settings?.newsWindow);
  const update = useApp((s) => s.updateSettings);
  if (!nw) return null;
  const set = (patch: Partial<NewsWindowSettings>) =>
    void update({ newsWindow: { ...nw, ...patch } });
  const toggleImpact = (v: Volatility, on: boolean) => {
    const impacts = on ? [...new Set([...nw.impacts, v])] : nw.impacts.filter((i) => i !== v);
    if (impacts.length > 0) set({ impacts }); // at least one impact opens windows
  };
  return (
    <section className="card" aria-labelledby="news-window-h">
      <h2 id="news-window-h">News windows</h2>
      <p className="muted">
        Many funded-trader rules forbid trading around big releases. The tray counts down to the
        next window and the calendar shades the releases inside one.
      </p>
      <label className="inline">
        <input
          type="checkbox"
          checked={nw.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
        />{' '}
        Show news windows
      </label>
      <div className="news-window-minutes">
        <Minutes
          label="Minutes before"
          value={nw.minutesBefore}
          onChange={(n) => set({ minutesBefore: n })}
        />
        <Minutes
          label="Minutes after"
          value={nw.minutesAfter}
          onChange={(n) => set({ minutesAfter: n })}
        />
      </div>
      <fieldset>
        <legend>Impacts that open a window</legend>
        {VOLATILITIES.filter((v) => v !== 'NONE').map((v) => (
          <label key={v} className="inline">
            <input
              type="checkbox"
              checked={nw.impacts.includes(v)}
              onChange={(e) => toggleImpact(v, e.target.checked)}
            />{' '}
            {IMPACT_LABEL[v]}
          </label>
        ))}
      </fieldset>
      <label className="inline">
        <input
          type="checkbox"
          checked={nw.alerts}
          onChange={(e) => set({ alerts: e.target.checked })}
        />{' '}
        Alert when a window opens and when it closes
      </label>
    </section>
  );
}
