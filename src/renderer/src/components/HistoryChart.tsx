import type { EventDate } from '../../../shared/domain.js';
import { formatValue } from '../../../shared/format.js';

/** Actual vs consensus over past prints, oldest left. Plain SVG, labelled for screen readers. */
export function HistoryChart({ history, title }: { history: EventDate[]; title: string }) {
  const points = [...history]
    .filter((h) => h.actual !== null)
    .reverse()
    .slice(-24);
  if (points.length < 2) return <p className="muted">Not enough history to chart yet.</p>;
  const W = 560;
  const H = 180;
  const pad = { l: 48, r: 12, t: 12, b: 28 };
  const values = points.flatMap((p) => [
    p.actual as number,
    ...(p.consensus !== null ? [p.consensus] : []),
  ]);
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const x = (i: number) => pad.l + (i * (W - pad.l - pad.r)) / (points.length - 1);
  const y = (v: number) => pad.t + ((max - v) * (H - pad.t - pad.b)) / (max - min);
  const line = (get: (p: EventDate) => number | null) =>
    points
      .map((p, i) => [i, get(p)] as const)
      .filter(([, v]) => v !== null)
      .map(([i, v], k) => `${k === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v as number).toFixed(1)}`)
      .join(' ');
  const first = points[0] as EventDate;
  const last = points.at(-1) as EventDate;
  const fmt = (v: number) => formatValue(v, first.unit, first.potency);
  return (
    <svg
      className="history-chart"
      data-testid="history-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby="hc-title hc-desc"
    >
      <title id="hc-title">{title}: actual vs consensus</title>
      <desc id="hc-desc">
        {points.length} releases from {first.dateUtc.slice(0, 10)} to {last.dateUtc.slice(0, 10)};
        latest actual {fmt(last.actual as number)}.
      </desc>
      {[min, (min + max) / 2, max].map((v) => (
        <g key={v}>
          <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} className="grid" />
          <text x={pad.l - 6} y={y(v) + 4} textAnchor="end" className="axis">
            {fmt(v)}
          </text>
        </g>
      ))}
      <text x={pad.l} y={H - 8} className="axis">
        {first.dateUtc.slice(0, 7)}
      </text>
      <text x={W - pad.r} y={H - 8} textAnchor="end" className="axis">
        {last.dateUtc.slice(0, 7)}
      </text>
      <path d={line((p) => p.consensus)} className="series-consensus" />
      <path d={line((p) => p.actual)} className="series-actual" />
      {points.map((p, i) => (
        <circle
          key={p.id}
          cx={x(i)}
          cy={y(p.actual as number)}
          r={3}
          className={p.isBetterThanExpected === false ? 'pt-miss' : 'pt-beat'}
        >
          <title>
            {p.dateUtc.slice(0, 10)}: {fmt(p.actual as number)}
            {p.consensus !== null ? ` vs ${fmt(p.consensus)}` : ''}
          </title>
        </circle>
      ))}
      <g className="legend">
        <rect x={W - 180} y={pad.t} width={10} height={3} className="legend-actual" />
        <text x={W - 165} y={pad.t + 5} className="axis">
          Actual
        </text>
        <rect x={W - 110} y={pad.t} width={10} height={3} className="legend-consensus" />
        <text x={W - 95} y={pad.t + 5} className="axis">
          Consensus
        </text>
      </g>
    </svg>
  );
}
