/** Small measurement helpers for the benchmark suite. */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export function summarize(samples: number[]): {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
} {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    max: s.at(-1) ?? NaN,
    mean,
  };
}

export const nowMs = (): number => performance.now();

/** Wall clock with sub-millisecond precision, comparable across processes on one host. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits);
}
