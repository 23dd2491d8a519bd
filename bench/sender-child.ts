/**
 * Webhook senders for time to alert, in their own process: on the user's machine the
 * senders are the service's servers elsewhere, so they must not share the app core's
 * event loop. Each job arrives over IPC; the reply carries, per key, the wall-clock time
 * (ms, sub-ms precision) just before its POST was handed to the socket pool.
 */
import { Agent, request } from 'undici';
import { wallMs } from './lib.js';

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

const agents = new Map<number, Agent>();
const agentFor = (n: number): Agent => {
  let a = agents.get(n);
  if (!a) agents.set(n, (a = new Agent({ connections: n, keepAliveTimeout: 30_000 })));
  return a;
};

async function run(job: SendJob): Promise<SendReply> {
  const agent = agentFor(job.concurrency);
  const sentAt: Record<string, number> = {};
  let failures = 0;
  let next = 0;
  const worker = async () => {
    while (next < job.items.length) {
      const item = job.items[next++]!;
      sentAt[item.key] = wallMs();
      try {
        const res = await request(job.url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json' },
          body: item.body,
        });
        await res.body.dump();
        if (res.statusCode >= 300) failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  return { id: job.id, sentAt, failures };
}

process.on('message', (job: SendJob) => {
  void run(job).then((reply) => process.send?.(reply));
});
process.on('disconnect', () => process.exit(0));
