/** The event's surprises: this print against its own history, and the history itself. */
import type { EventDate } from '../../../../shared/domain.js';
import {
  formatSurprise,
  surpriseDelta,
  surpriseZ,
  publishedDecimals,
  valueDecimals,
  Z_MIN_HISTORY,
} from '../../../../shared/format.js';
import { dateTimeLabel } from '../../lib/time.js';

const signed = (n: number, text: string) => (n > 0 ? `+${text}` : text);

/** "z +1.3 (n=12)": a z-score always says how many earlier surprises it stands on. */
const zLabel = (z: number, n: number) => `${signed(z, z.toFixed(1))} (n=${n})`;

/** Why there is no z-score: too few earlier surprises (and how many), or all of them alike. */
const noZ = (n: number) =>
  n < Z_MIN_HISTORY
    ? ` · no z-score: ${n} earlier ${n === 1 ? 'surprise' : 'surprises'}, ${Z_MIN_HISTORY} needed`
    : ' · no z-score: the earlier surprises are all alike';

/**
 * Each printed occurrence (newest first) with its surprise and its z-score against the older
 * ones; `n` counts the older surprises it stands on, each a row below it in the table.
 */
export function surpriseHistory(history: readonly EventDate[]) {
  const printed = history.filter((h) => h.actual !== null && h.consensus !== null);
  const deltas = printed.map(surpriseDelta);
  return printed.map((ed, i) => {
    const older = deltas.slice(i + 1).filter((d) => d !== null && Number.isFinite(d));
    const delta = deltas[i] ?? null;
    return { ed, delta, z: surpriseZ(delta, older), n: older.length };
  });
}

export function Surprises(props: { history: EventDate[]; zone: string; hourCycle: 'h12' | 'h23' }) {
  // every surprise a z-score stands on is listed: a row's n is the count of rows below it
  const list = surpriseHistory(props.history);
  if (list.length === 0) return <p className="muted">No printed history with a consensus yet.</p>;
  const latest = list[0] as (typeof list)[number];
  const own = valueDecimals(props.history.flatMap((h) => [h.actual, h.consensus]));
  const published = publishedDecimals(latest.ed);
  const decimals = own === undefined ? own : Math.max(own, published ?? 0);
  const f = (v: number) => formatSurprise(v, latest.ed.unit, latest.ed.potency, decimals);
  return (
    <>
      <p className="surprise-summary" data-testid="surprise-summary">
        Latest surprise{' '}
        <strong>{latest.delta === null ? '—' : signed(latest.delta, f(latest.delta))}</strong>
        {latest.ed.ratioDeviation !== null && (
          <>
            {' '}
            · deviation score{' '}
            {signed(latest.ed.ratioDeviation, latest.ed.ratioDeviation.toFixed(2))}
          </>
        )}
        {latest.z !== null ? (
          <>
            {' '}
            · <strong>z {zLabel(latest.z, latest.n)}</strong> against its {latest.n} earlier
            surprises
          </>
        ) : (
          noZ(latest.n)
        )}
      </p>
      <div className="occurrences surprises" role="table" aria-label="Surprise history">
        <div role="row" className="occ-head">
          {['Date', 'Actual − cons.', 'Deviation', 'z'].map((h) => (
            <span key={h} role="columnheader" className={h === 'Date' ? undefined : 'num'}>
              {h}
            </span>
          ))}
        </div>
        {list.map(({ ed, delta, z, n }) => (
          <div role="row" key={ed.id} className="occ-row">
            <span role="cell">{dateTimeLabel(ed.dateUtc, props.zone, props.hourCycle)}</span>
            <span
              role="cell"
              className={`num ${delta === null ? '' : delta > 0 ? 'above' : delta < 0 ? 'below' : ''}`}
            >
              {delta === null ? '—' : signed(delta, f(delta))}
            </span>
            <span role="cell" className="num">
              {ed.ratioDeviation === null
                ? '—'
                : signed(ed.ratioDeviation, ed.ratioDeviation.toFixed(2))}
            </span>
            <span role="cell" className="num">
              {z === null ? '—' : zLabel(z, n)}
            </span>
          </div>
        ))}
      </div>
    </>
  );
}
