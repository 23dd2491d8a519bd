/**
 * Axis ticks a reader can trust: round steps (1, 2, 2.5 or 5 × a power of ten) from a
 * multiple of the step at or below the lowest value to one at or above the highest, so
 * every gridline is drawn at the value its label says. The history chart had lines at
 * min, midpoint and max (0.2, 0.35, 0.5) with the middle one labelled "0.3%": a 0.3% print
 * sat below its own label.
 */
const STEPS = [1, 2, 2.5, 5, 10];

export interface Ticks {
  values: number[];
  /** Decimals the labels need to say each value exactly (2.5 steps need one more). */
  decimals: number;
}

/** At most `maxCount` + 1 ticks spanning [min, max] (min < max, both finite). */
export function niceTicks(min: number, max: number, maxCount = 4): Ticks {
  const raw = (max - min) / Math.max(1, maxCount);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const unit = STEPS.find((s) => s * power >= raw - 1e-12) ?? 10;
  const step = unit * power;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (unit === 2.5 ? 1 : 0));
  const round = (v: number) => Number(v.toFixed(decimals));
  const first = Math.floor(min / step + 1e-9) * step;
  const values: number[] = [];
  for (let v = first; v < max + step - 1e-9 * step; v += step) values.push(round(v));
  if ((values.at(-1) as number) < max) values.push(round((values.at(-1) as number) + step));
  return { values, decimals };
}
