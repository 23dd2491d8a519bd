/** One release in the grid: time, country, impact, name, values, surprise, and its bell. */
import { memo } from 'react';
import type { EventDate } from '../../../../shared/domain.js';
import { formatSurprise, releaseDecimals, surpriseDelta } from '../../../../shared/format.js';
import { timeLabel } from '../../lib/time.js';
import { Flag } from '../Flag.js';
import { BellIcon } from '../icons.js';
import { Impact, ValueCells } from './Cells.js';
import { rowPlacement } from './use-row-window.js';

/** What "dev +1.4" means, on hover: the grid has no room to say it. */
const DEVIATION_SCORE_HELP =
  "Deviation score (the data provider's): how far the actual was from the consensus, in " +
  "standard deviations of this release's past surprises. Beyond ±1 is a real surprise.";

/**
 * "+25K" and the provider's deviation score ("dev +1.4") when the service gives one that
 * rounds to something: "dev +0.0" on an in-line print says nothing.
 */
function SurpriseCell({ ed, decimals }: { ed: EventDate; decimals: number | undefined }) {
  const delta = surpriseDelta(ed);
  const dev = ed.ratioDeviation !== null ? Math.round(ed.ratioDeviation * 10) / 10 : 0;
  return (
    <span role="gridcell" className="num surprise" data-col="surprise">
      {delta === null || ed.actual === null ? (
        ''
      ) : (
        <>
          <span className="delta">
            {delta > 0 ? '+' : ''}
            {formatSurprise(delta, ed.unit, ed.potency, decimals)}
          </span>
          {dev !== 0 && (
            <span className="dev" title={DEVIATION_SCORE_HELP}>
              {' '}
              dev {dev > 0 ? '+' : ''}
              {dev.toFixed(1)}
            </span>
          )}
        </>
      )}
    </span>
  );
}

/** "BoJ's Governor Ueda speech" needs no "speech" tag: it would only take the name's room. */
const SAYS_SPEECH = /\bspeech\b/i;

/** Memoised: its props are plain values and callbacks that keep their identity. */
export const EventRow = memo(function EventRow(props: {
  ed: EventDate;
  index: number;
  zone: string;
  hourCycle: 'h12' | 'h23';
  classes: string;
  focused: boolean;
  watched: boolean;
  onOpen: (index: number, eventId: string) => void;
  onWatch: (eventId: string) => void;
}) {
  const { ed, index, zone, hourCycle, classes, focused, watched } = props;
  // the release's own precision, worked out once for all its figures
  const decimals = releaseDecimals(ed);
  return (
    <div
      id={`row-${ed.id}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={focused}
      data-testid="event-row"
      data-event-date-id={ed.id}
      data-watched={watched || undefined}
      className={`event-row${classes}${watched ? ' watched' : ''}`}
      style={rowPlacement(index)}
      onClick={() => props.onOpen(index, ed.eventId)}
    >
      <span role="gridcell" data-col="time" className="time">
        {ed.isAllDay ? 'All day' : timeLabel(ed.dateUtc, zone, hourCycle)}
      </span>
      <span role="gridcell" data-col="country">
        <Flag code={ed.countryCode} />
        {ed.countryCode}
      </span>
      <span role="gridcell" data-col="currency">
        {ed.currencyCode}
      </span>
      <span role="gridcell" data-col="impact">
        <Impact v={ed.volatility} />
      </span>
      {/* a narrow grid cuts the name, never its tags (the title gives it whole) */}
      <span role="gridcell" data-col="name" className="name" title={ed.name}>
        <span className="name-text">{ed.name}</span>
        {ed.isSpeech && !SAYS_SPEECH.test(ed.name) && <span className="tag">speech</span>}
        {ed.isTentative && <span className="tag">tentative</span>}
      </span>
      <ValueCells ed={ed} decimals={decimals} />
      <SurpriseCell ed={ed} decimals={decimals} />
      <span role="gridcell" data-col="watch" className="watch-cell">
        {/* Out of the tab order: the grid is one tab stop (w toggles the focused row). */}
        <button
          type="button"
          tabIndex={-1}
          className={`bell${watched ? ' on' : ''}`}
          aria-pressed={watched}
          aria-label={`Watch ${ed.countryCode} ${ed.name}`}
          title={watched ? 'Watched: alerts for this event (w)' : 'Watch this event (w)'}
          onClick={(e) => {
            e.stopPropagation();
            props.onWatch(ed.eventId);
          }}
        >
          <BellIcon filled={watched} />
        </button>
      </span>
    </div>
  );
});
