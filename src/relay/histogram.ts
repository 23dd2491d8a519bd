/** A Prometheus histogram (cumulative buckets, sum, count), never reset while running. */
export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  /** @param bounds upper bounds in seconds, ascending */
  constructor(private readonly bounds: readonly number[]) {
    this.counts = bounds.map(() => 0);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++)
      if (seconds <= (this.bounds[i] as number)) this.counts[i] = (this.counts[i] as number) + 1;
  }

  lines(name: string): string[] {
    return [
      ...this.bounds.map((b, i) => `${name}_bucket{le="${b}"} ${this.counts[i] as number}`),
      `${name}_bucket{le="+Inf"} ${this.count}`,
      `${name}_sum ${this.sum}`,
      `${name}_count ${this.count}`,
    ];
  }
}

/** Commit latency buckets: 0.25 ms to 2.5 s. */
export const COMMIT_BUCKETS = [
  0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
] as const;
