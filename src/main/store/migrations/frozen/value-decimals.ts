/**
 * Frozen copy of `valueDecimals` (src/shared/format.ts) as migration 009 shipped with it.
 * Never edit (see html-to-text.ts).
 */

/** The most decimals worth counting: more is float noise (0.1 + 0.2). */
const MAX_DECIMALS = 6;

function decimalsOf(value: number): number {
  for (let d = 0; d < MAX_DECIMALS; d++) {
    const scaled = value * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled))) return d;
  }
  return MAX_DECIMALS;
}

/** The most decimals among the finite figures, or undefined when there is none. */
export function valueDecimalsV1(values: readonly (number | null)[]): number | undefined {
  let most: number | undefined;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    most = Math.max(most ?? 0, decimalsOf(v));
  }
  return most;
}
