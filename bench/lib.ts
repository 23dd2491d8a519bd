/** Small measurement helpers for the benchmark suite. */
import http from 'node:http';
import { Agent, request } from 'undici';

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

/** POST `count` JSON bodies with `concurrency` workers; returns acknowledged count and duration. */
export async function postBurst(opts: {
  url: string;
  bodies: (i: number) => string;
  count: number;
  concurrency: number;
  agent?: Agent;
  onAck?: (i: number, at: number) => void;
}): Promise<{ acked: number; ms: number; failures: number }> {
  const agent =
    opts.agent ??
    new Agent({ connections: opts.concurrency, pipelining: 1, keepAliveTimeout: 10_000 });
  let next = 0;
  let acked = 0;
  let failures = 0;
  const start = nowMs();
  const worker = async () => {
    while (next < opts.count) {
      const i = next++;
      try {
        const res = await request(opts.url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json' },
          body: opts.bodies(i),
        });
        await res.body.dump();
        if (res.statusCode === 204 || res.statusCode === 200) {
          acked++;
          opts.onAck?.(i, nowMs());
        } else failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const ms = nowMs() - start;
  if (!opts.agent) await agent.close();
  return { acked, ms, failures };
}

/** A bare Node HTTP server that answers 204 without storing: the ingest baseline. */
export async function startBareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/x`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits);
}
