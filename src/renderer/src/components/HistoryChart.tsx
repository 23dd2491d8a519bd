import { useMemo, useState, type KeyboardEvent } from 'react';
import type { EventDate } from '../../../shared/domain.js';
import {
  formatValue,
  publishedDecimals,
  surpriseOf,
  valueDecimals,
} from '../../../shared/format.js';
import { niceTicks } from '../lib/nice-ticks.js';
import { zoneOf } from '../lib/time.js';

// The viewBox is about the panel's width in CSS pixels, so 11-unit text reads as ~11 px.
const W = 380;
const H = 190;
const PAD = { l: 52, r: 14, t: 26, b: 30 };
/** About the widest character of the 11 px axis text (digits, ¥, $). */
const AXIS_CHAR_PX = 7;

/** Month ticks and the hovered date, in the zone the calendar shows. */
function dateFormats(zone: string) {
  const timeZone = zoneOf(zone);
  return {
    month: new Intl.DateTimeFormat('en-GB', { month: 'short', year: '2-digit', timeZone }),
    day: new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone,
    }),
  };
}

/** Beat and miss as the service says; an in-line print (or one without consensus) is neutral. */
function pointClass(p: EventDate): string {
  const s = surpriseOf(p);
  return s === 'beat' ? 'pt-beat' : s === 'miss' ? 'pt-miss' : 'pt-inline';
}

/** Up to `n` evenly spread indices from 0 to len − 1, ends included. */
function tickIndices(len: number, n: number): number[] {
  if (len <= 1) return [0];
  const count = Math.min(n, len);
  const out = new Set<number>();
  for (let k = 0; k < count; k++) out.add(Math.round((k * (len - 1)) / (count - 1)));
  return [...out];
}

/** Where a value and a print's index fall on the chart, and how the values and ticks read. */
function chartGeometry(points: EventDate[]) {
  const values = points.flatMap((p) => [
    p.actual as number,
    ...(p.consensus !== null ? [p.consensus] : []),
  ]);
  let lowest = Math.min(...values);
  let highest = Math.max(...values);
  if (lowest === highest) {
    lowest -= 1;
    highest += 1;
  }
  // The axis spans round ticks, each gridline drawn at the value its label says.
  const ticks = niceTicks(lowest, highest);
  const min = ticks.values[0] as number;
  const max = ticks.values.at(-1) as number;
  const first = points[0] as EventDate;
  const own = valueDecimals(points.flatMap((p) => [p.actual, p.consensus, p.previous]));
  const decimals = own === undefined ? own : Math.max(own, publishedDecimals(first) ?? 0);
  const fmt = (v: number) => formatValue(v, first.unit, first.potency, decimals);
  const tickLabel = (v: number) =>
    formatValue(v, first.unit, first.potency, Math.max(decimals ?? 0, ticks.decimals));
  const levels = ticks.values;
  // Room on the left for the longest axis label: "-¥353.9B" lost its minus sign at 52 px.
  const left = Math.max(
    PAD.l,
    10 + AXIS_CHAR_PX * Math.max(...levels.map((v) => tickLabel(v).length)),
  );
  const x = (i: number) => left + (i * (W - left - PAD.r)) / (points.length - 1);
  const y = (v: number) => PAD.t + ((max - v) * (H - PAD.t - PAD.b)) / (max - min);
  const step = (W - left - PAD.r) / (points.length - 1);
  return { fmt, tickLabel, levels, left, x, y, step };
}
type Geometry = ReturnType<typeof chartGeometry>;

function Legend({ left }: { left: number }) {
  return (
    <g className="legend">
      <rect x={left} y={6} width={12} height={3} className="legend-actual" />
      <text x={left + 16} y={11} className="axis">
        Actual
      </text>
      <rect x={left + 70} y={6} width={12} height={3} className="legend-consensus" />
      <text x={left + 86} y={11} className="axis">
        Consensus
      </text>
    </g>
  );
}

/** Gridlines with their values, and month ticks along the bottom. */
function Axes({
  g,
  points,
  month,
}: {
  g: Geometry;
  points: EventDate[];
  month: (p: EventDate) => string;
}) {
  return (
    <>
      {g.levels.map((v) => (
        <g key={v}>
          <line x1={g.left} x2={W - PAD.r} y1={g.y(v)} y2={g.y(v)} className="grid" />
          <text x={g.left - 6} y={g.y(v) + 4} textAnchor="end" className="axis">
            {g.tickLabel(v)}
          </text>
        </g>
      ))}
      {tickIndices(points.length, 5).map((i) => (
        <text
          key={i}
          x={g.x(i)}
          y={H - 10}
          className="axis"
          textAnchor={i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}
        >
          {month(points[i] as EventDate)}
        </text>
      ))}
    </>
  );
}

/** The two series, a point per print, and one invisible column per point that catches the pointer. */
function Series(props: {
  g: Geometry;
  points: EventDate[];
  hover: number | null;
  setHover: (i: number) => void;
}) {
  const { g, points, hover } = props;
  const line = (get: (p: EventDate) => number | null) =>
    points
      .map((p, i) => [i, get(p)] as const)
      .filter(([, v]) => v !== null)
      .map(
        ([i, v], k) => `${k === 0 ? 'M' : 'L'}${g.x(i).toFixed(1)},${g.y(v as number).toFixed(1)}`,
      )
      .join(' ');
  return (
    <>
      <path d={line((p) => p.consensus)} className="series-consensus" />
      <path d={line((p) => p.actual)} className="series-actual" />
      {points.map((p, i) => (
        <circle
          key={p.id}
          cx={g.x(i)}
          cy={g.y(p.actual as number)}
          r={hover === i ? 5 : 3}
          className={pointClass(p)}
          data-surprise={surpriseOf(p) ?? 'none'}
        />
      ))}
      {points.map((p, i) => (
        <rect
          key={`hit-${p.id}`}
          x={g.x(i) - g.step / 2}
          y={PAD.t}
          width={g.step}
          height={H - PAD.t - PAD.b}
          className="hit"
          onMouseEnter={() => props.setHover(i)}
        />
      ))}
    </>
  );
}

function Tooltip({
  g,
  at,
  shown,
  day,
}: {
  g: Geometry;
  at: number;
  shown: EventDate;
  day: string;
}) {
  const cx = g.x(at);
  return (
    <g className="tooltip" data-testid="chart-tooltip" pointerEvents="none">
      <line x1={cx} x2={cx} y1={PAD.t} y2={H - PAD.b} className="cursor" />
      {/* Beside the cursor, toward the middle: never past either edge of the chart. */}
      <text
        x={cx < W / 2 ? Math.max(cx, g.left) : cx}
        y={12}
        textAnchor={cx < W / 2 ? 'start' : 'end'}
        className="tip"
      >
        {day}: {g.fmt(shown.actual as number)}
        {shown.consensus !== null ? ` vs ${g.fmt(shown.consensus)}` : ''}
      </text>
    </g>
  );
}

/**
 * Actual vs consensus over past prints, oldest left. Plain SVG, labelled for screen readers;
 * hovering (or ←/→ once focused) shows a point's date, actual and consensus. The legend sits
 * above the plot, never over a point.
 */
export function HistoryChart(props: { history: EventDate[]; title: string; zone: string }) {
  const { history, title } = props;
  const [hover, setHover] = useState<number | null>(null);
  const formats = useMemo(() => dateFormats(props.zone), [props.zone]);
  const points = [...history]
    .filter((h) => h.actual !== null)
    .reverse()
    .slice(-24);
  if (points.length < 2) return <p className="muted">Not enough history to chart yet.</p>;
  const g = chartGeometry(points);
  const first = points[0] as EventDate;
  const last = points.at(-1) as EventDate;
  const month = (p: EventDate) => formats.month.format(new Date(p.dateUtc));
  const day = (p: EventDate) => formats.day.format(new Date(p.dateUtc));
  const shown = hover === null ? null : (points[hover] ?? null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const d = e.key === 'ArrowLeft' ? -1 : 1;
    setHover((h) => Math.max(0, Math.min(points.length - 1, (h ?? points.length) + d)));
  };
  return (
    <svg
      className="history-chart"
      data-testid="history-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      tabIndex={0}
      aria-labelledby="hc-title hc-desc"
      onKeyDown={onKeyDown}
      onMouseLeave={() => setHover(null)}
      onBlur={() => setHover(null)}
    >
      <title id="hc-title">{title}: actual vs consensus</title>
      <desc id="hc-desc">
        {points.length} releases from {day(first)} to {day(last)}; latest actual{' '}
        {g.fmt(last.actual as number)}.
      </desc>
      {!shown && <Legend left={g.left} />}
      <Axes g={g} points={points} month={month} />
      <Series g={g} points={points} hover={hover} setHover={setHover} />
      {shown && hover !== null && <Tooltip g={g} at={hover} shown={shown} day={day(shown)} />}
    </svg>
  );
}
