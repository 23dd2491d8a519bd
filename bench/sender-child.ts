/**
 * Webhook senders for time to alert, in their own process: on the user's machine the
 * senders are the service's servers elsewhere, so they must not share the app core's
 * event loop, and on two shared cores they should cost as little CPU as they can. Each
 * sender is one keep-alive HTTP/1.1 connection writing a prepared request and reading the
 * status line of its answer (wrk's approach; no client library in the way). Each job
 * arrives over IPC; the reply carries, per key, the wall-clock time (ms, sub-ms
 * precision) just before its request was written to the socket.
 */
import { wallMs } from './lib.js';
import { RawHttpConnection as Connection } from './raw-http.js';

export interface SendJob {
  id: number;
  url: string;
  items: { key: string; body: string }[];
  concurrency: number;
}
export interface SendReply {
  id: number;
  sentAt: Record<string, number>;
  failures: number;
}

const pools = new Map<string, Connection[]>();
function poolFor(url: string, n: number): Connection[] {
  const key = `${url} ${n}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = Array.from({ length: n }, () => new Connection(new URL(url)))));
  // A connection left idle past the server's keep-alive timeout was closed: open a new one,
  // as wrk does, rather than count every request on it as failed.
  for (let i = 0; i < pool.length; i++)
    if ((pool[i] as Connection).closed) pool[i] = new Connection(new URL(url));
  return pool;
}

async function run(job: SendJob): Promise<SendReply> {
  const pool = poolFor(job.url, job.concurrency);
  await Promise.all(pool.map((c) => c.opened())); // connecting is not part of any latency
  const sentAt: Record<string, number> = {};
  let failures = 0;
  let next = 0;
  const worker = async (conn: Connection) => {
    while (next < job.items.length) {
      const item = job.items[next++]!;
      sentAt[item.key] = wallMs();
      try {
        const status = await conn.post(item.body);
        if (status < 200 || status >= 300) failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(pool.map(worker));
  return { id: job.id, sentAt, failures };
}

process.on('message', (job: SendJob) => {
  void run(job).then((reply) => process.send?.(reply));
});
process.on('disconnect', () => {
  for (const pool of pools.values()) pool.forEach((c) => c.close());
  process.exit(0);
});
