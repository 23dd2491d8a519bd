/** The rows of the virtual grid on screen: day headers, the now line and the releases. */
import { memo } from 'react';
import type { EventDate } from '../../../../shared/domain.js';
import type { Item } from '../../lib/items.js';
import { weekdayTimeLabel } from '../../lib/time.js';
import { EventRow } from './EventRow.js';
import { rowPlacement as placed } from './use-row-window.js';

const NowLine = memo(function NowLine({ index }: { index: number }) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="now-line"
      style={placed(index)}
      data-testid="now-line"
    >
      <span role="gridcell">Now</span>
    </div>
  );
});

const DayRow = memo(function DayRow(props: { index: number; label: string; day: string }) {
  return (
    <div
      role="row"
      aria-rowindex={props.index + 2}
      className="day-row"
      style={placed(props.index)}
      data-day={props.day}
    >
      <span role="rowheader">{props.label}</span>
    </div>
  );
});

/** Today without releases: says so, and when the next one is, instead of an empty gap. */
const QuietDayRow = memo(function QuietDayRow(props: {
  index: number;
  next: EventDate | null;
  zone: string;
  hourCycle: 'h12' | 'h23';
}) {
  const next = props.next;
  return (
    <div
      role="row"
      aria-rowindex={props.index + 2}
      className="quiet-day"
      style={placed(props.index)}
      data-testid="quiet-day"
    >
      <span role="gridcell">
        No releases today
        {next
          ? ` — next: ${next.countryCode} ${next.name}, ${weekdayTimeLabel(next.dateUtc, props.zone, props.hourCycle)}`
          : ''}
      </span>
    </div>
  );
});

export interface GridRowsProps {
  items: Item[];
  first: number;
  last: number;
  now: number;
  zone: string;
  hourCycle: 'h12' | 'h23';
  focus: number;
  openEventId: string | null;
  watched: readonly string[];
  /** Whether a row still flashes (a print that just landed). */
  flashing: (ed: EventDate) => boolean;
  inNewsWindow: (ed: EventDate) => boolean;
  onOpen: (index: number, eventId: string) => void;
  onWatch: (eventId: string) => void;
}

/**
 * Each row is memoised on plain values (its release, its classes, stable callbacks): a
 * scroll, a focus move or a pushed print re-renders only the rows whose look changed.
 */
export function GridRows(p: GridRowsProps) {
  const indexes = Array.from({ length: Math.max(0, p.last - p.first) }, (_, k) => p.first + k);
  // the focused row stays in the DOM when scrolled out of view: the grid's
  // aria-activedescendant must name an element
  if (p.focus >= 0 && p.focus < p.items.length && (p.focus < p.first || p.focus >= p.last))
    indexes.push(p.focus);
  return indexes.map((index) => {
    const it = p.items[index] as Item;
    if (it.kind === 'now') return <NowLine key="now" index={index} />;
    if (it.kind === 'quiet-day')
      return (
        <QuietDayRow
          key={it.key}
          index={index}
          next={it.next}
          zone={p.zone}
          hourCycle={p.hourCycle}
        />
      );
    if (it.kind === 'day')
      return <DayRow key={it.key} index={index} label={it.label} day={it.day} />;
    const ed = it.ed;
    const past = ed.actual !== null || Date.parse(ed.dateUtc) < p.now;
    const classes = `${p.flashing(ed) ? ' flash' : ''}${p.focus === index ? ' focused' : ''}${past ? ' past' : ''}${p.openEventId === ed.eventId ? ' open' : ''}${p.inNewsWindow(ed) ? ' news-window' : ''}`;
    return (
      <EventRow
        key={it.key}
        ed={ed}
        index={index}
        zone={p.zone}
        hourCycle={p.hourCycle}
        classes={classes}
        focused={p.focus === index}
        watched={p.watched.includes(ed.eventId)}
        onOpen={p.onOpen}
        onWatch={p.onWatch}
      />
    );
  });
}
