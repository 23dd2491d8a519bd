/** The cells a release row shows: impact bars, and actual / consensus / previous with cues. */
import type { EventDate } from '../../../../shared/domain.js';
import {
  directionOf,
  formatSurprise,
  formatValue,
  previousFigures,
  releaseDecimals,
  surpriseDelta,
  surpriseOf,
  volatilityRank,
} from '../../../../shared/format.js';
import { flagOf } from '../../lib/flags.js';

export function Impact({ v }: { v: string }) {
  const rank = volatilityRank(v);
  return (
    <span className={`impact impact-${rank}`} title={`${v.toLowerCase()} impact`}>
      {[1, 2, 3].map((i) => (
        <span key={i} className={i <= rank ? 'bar on' : 'bar'} aria-hidden="true" />
      ))}
      <span className="sr-only">{v.toLowerCase()} impact</span>
    </span>
  );
}

const BETTER = { beat: 'better than expected', miss: 'worse than expected' } as const;

/**
 * Actual, consensus, previous. The arrow says where the print landed against consensus
 * (▲ above, ▼ below); the colour says whether that is good for the currency (an
 * unemployment rate below consensus is ▼ in the "better" colour).
 */
export function ValueCells({
  ed,
  decimals = releaseDecimals(ed),
}: {
  ed: EventDate;
  /** The release's precision, when the caller has it already. */
  decimals?: number | undefined;
}) {
  const s = surpriseOf(ed);
  const dir = directionOf(ed);
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency, decimals);
  const fDelta = (v: number) => formatSurprise(v, ed.unit, ed.potency, decimals);
  const delta = surpriseDelta(ed);
  const better = s === 'beat' || s === 'miss' ? BETTER[s] : null;
  const title =
    delta !== null && delta !== 0
      ? `${delta > 0 ? '+' : ''}${fDelta(delta)} vs consensus${better ? `, ${better}` : ''}`
      : undefined;
  return (
    <>
      <span
        role="gridcell"
        className={`num actual ${s ?? ''}`}
        data-col="actual"
        data-direction={dir ?? undefined}
        title={title}
      >
        {ed.actual === null ? '' : f(ed.actual)}
        {(dir === 'above' || dir === 'below') && (
          <span
            className="cue"
            aria-label={`${dir} consensus${better ? `, ${better}` : ''}`}
            role="img"
          >
            {' '}
            {dir === 'above' ? '▲' : '▼'}
          </span>
        )}
      </span>
      <span role="gridcell" className="num" data-col="consensus">
        {f(ed.consensus)}
      </span>
      <PreviousCell ed={ed} f={f} />
    </>
  );
}

/**
 * The previous period's figure. A revised one (as Forex Factory marks it) is in the
 * revision colour with a marker, and the figure it was revised from below it and in its
 * title; a screen reader hears "revised from".
 */
function PreviousCell({ ed, f }: { ed: EventDate; f: (v: number | null) => string }) {
  const { current, revisedFrom } = previousFigures(ed);
  if (revisedFrom === null) {
    return (
      <span role="gridcell" className="num" data-col="previous">
        {f(current)}
      </span>
    );
  }
  const from = `Revised from ${f(revisedFrom)}`;
  return (
    // Two lines, so the figure it was revised from is never cut off in a narrow column.
    <span
      role="gridcell"
      className="num has-revised"
      data-col="previous"
      data-revised-from={f(revisedFrom)}
      title={from}
      aria-label={`${f(current)}, revised from ${f(revisedFrom)}`}
    >
      <span className="revised-figure">{f(current)}</span>{' '}
      <span className="revised">rev. from {f(revisedFrom)}</span>
    </span>
  );
}

/**
 * An invisible row with every text style a calendar row uses (flag emoji, weights, tabular
 * figures), laid out while the calendar is being fetched: a cold tab resolves and shapes
 * these fonts once, here, instead of inside the first layout of the real rows. Hidden from
 * sight, pointer and assistive technology; gone once rows arrive.
 */
export function FontWarmup() {
  return (
    <div className="event-row font-warmup" aria-hidden="true">
      <span className="time">08:30</span>
      <span>{flagOf('US')} US</span>
      <span>USD</span>
      <span>
        <Impact v="HIGH" />
      </span>
      <span className="name">
        Nonfarm Payrolls<span className="tag">speech</span>
      </span>
      <span className="num actual beat">
        275K<span className="cue"> ▲</span>
      </span>
      <span className="num">-0.3%</span>
      <span className="num has-revised">
        <span className="revised-figure">4.25%</span>{' '}
        <span className="revised">rev. from 4.5%</span>
      </span>
    </div>
  );
}
