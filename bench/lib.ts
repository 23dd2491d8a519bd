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

/**
 * Latency histograms that several processes' samples merge into: buckets 1 % wide from
 * 0.01 ms (bucket b holds values up to 0.01 × 1.01^b ms; the last one everything past
 * ~4 minutes), so a merged percentile is within 1 % of the exact one.
 */
export const HIST_BASE_MS = 0.01;
export const HIST_GROWTH = 1.01;
export const HIST_BUCKETS = 2000;

export function mergeHistograms(hs: number[][]): number[] {
  const out = new Array<number>(HIST_BUCKETS).fill(0);
  for (const h of hs) for (let b = 0; b < HIST_BUCKETS; b++) out[b] += h[b] ?? 0;
  return out;
}

/** The summary of a histogram: percentiles as their bucket's upper edge (≤ 1 % high). */
export function histogramSummary(h: number[]): {
  n: number;
  p50: number;
  p99: number;
  max: number;
} {
  const n = h.reduce((a, x) => a + x, 0);
  const edge = (b: number) => HIST_BASE_MS * HIST_GROWTH ** b;
  const at = (p: number) => {
    const rank = Math.max(1, Math.ceil(p * n));
    let seen = 0;
    for (let b = 0; b < h.length; b++) if ((seen += h[b] ?? 0) >= rank) return edge(b);
    return NaN;
  };
  let last = -1;
  for (let b = 0; b < h.length; b++) if ((h[b] ?? 0) > 0) last = b;
  return { n, p50: at(0.5), p99: at(0.99), max: last < 0 ? NaN : edge(last) };
}
