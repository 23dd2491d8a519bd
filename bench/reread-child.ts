/**
 * The re-reading trader of bench/gateway-reread-bench.ts, in a process of its own (it
 * stands for another machine: its 4 readers take in gigabytes, which must not slow the
 * bench process's webhook timing). Told `{ url, token, from, to, uncut }` over IPC, it
 * re-reads until told `'stop'`, then answers the count of each status and the bytes it
 * took in, and exits.
 */
import { request } from 'undici';

interface Job {
  url: string;
  token: string;
  from: number;
  to: number;
  uncut: boolean;
}

const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
let reading = true;

let bytes = 0;

/** One read, its body taken in whole (counted as it streams, not gathered). */
async function read(job: Job, endMs: number): Promise<number> {
  const res = await request(
    `${job.url}/service/calendar/en/api/v1/eventDates/${at(job.uncut ? job.from : job.from + 1)}/${at(endMs)}`,
    { headers: { authorization: `Bearer ${job.token}` } },
  );
  for await (const chunk of res.body as AsyncIterable<Buffer>) bytes += chunk.length;
  return res.statusCode;
}

async function reread(job: Job): Promise<Record<string, number>> {
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: 4 }, async (_, k) => {
      for (let i = 0; reading; i++) {
        const status = await read(job, job.uncut ? job.to : job.to - 1 - ((i * 4 + k) % 50_000));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { ...Object.fromEntries(statuses), bytes };
}

process.on('message', (m: Job | 'stop') => {
  if (m === 'stop') {
    reading = false;
    return;
  }
  void reread(m).then((statuses) => process.send?.(statuses, undefined, {}, () => process.exit(0)));
});
