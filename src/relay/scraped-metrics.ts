/**
 * prom-client metrics whose values are read when /metrics is scraped. The hot paths (ingest,
 * fan-out) only bump plain numbers on their own objects; these read them at scrape time, so
 * counting costs nothing per webhook. Each relay has its own Registry (several relays run
 * in one test process): nothing here touches prom-client's global default registry.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** A counter whose total is `read()` at scrape time. */
export function scrapedCounter(
  registry: Registry,
  name: string,
  help: string,
  read: () => number,
): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** A gauge read at scrape time; null leaves its sample out (the source is away). */
export function scrapedGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => number | null,
): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === null) this.remove();
      else this.set(value);
    },
  });
}

/**
 * A latency histogram in seconds, registered nowhere yet: its owner (an event log, desk
 * operations) observes it, and the relay's registry takes it in with registerMetric.
 */
export function latencyHistogram(
  name: string,
  help: string,
  buckets: readonly number[],
): Histogram {
  return new Histogram({ name, help, buckets: [...buckets], registers: [] });
}
