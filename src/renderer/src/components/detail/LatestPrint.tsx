/**
 * The event's latest print in words: "Actual 275K · Consensus 200K · Previous 143K (revised
 * from 119K)", so a revised previous is read in the detail as in the grid.
 */
import type { EventDate } from '../../../../shared/domain.js';
import { formatValue, previousFigures, releaseDecimals } from '../../../../shared/format.js';
import { dateTimeLabel } from '../../lib/time.js';

export function LatestPrint({
  ed,
  zone,
  hourCycle,
}: {
  ed: EventDate;
  zone: string;
  hourCycle: 'h12' | 'h23';
}) {
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency, releaseDecimals(ed));
  const { current, revisedFrom } = previousFigures(ed);
  return (
    <p className="latest-print" data-testid="latest-print">
      <span className="muted">Latest, {dateTimeLabel(ed.dateUtc, zone, hourCycle)}:</span>{' '}
      <span>Actual {f(ed.actual)}</span>
      {ed.consensus !== null && <span> · Consensus {f(ed.consensus)}</span>}
      {current !== null && (
        <span data-testid="latest-previous">
          {' '}
          · Previous{' '}
          {revisedFrom === null ? (
            f(current)
          ) : (
            <>
              <span className="revised-figure">{f(current)}</span> (revised from {f(revisedFrom)})
            </>
          )}
        </span>
      )}
    </p>
  );
}
