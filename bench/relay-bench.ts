/** Relay durable ingest (vs a bare 204 server) and SSE fan-out latency. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { nowMs, postBurst, startBareServer, summarize } from './lib.js';
import { RELAY_SECRET, RELAY_TOKEN, startRelayProc } from './procs.js';

const body = (i: number) =>
  JSON.stringify({
    type: 'eventDate_updated',
    eventDateId: `ed-${i}`,
    eventId: 'ev',
    lastUpdated: i,
    changes: [{ key: 'actual', value: i }],
  });

export async function benchIngest(quick: boolean) {
  const count = quick ? 3_000 : 30_000;
  const relay = await startRelayProc(mkdtempSync(join(tmpdir(), 'mb-bench-ingest-')));
  const bare = await startBareServer();
  try {
    await postBurst({
      url: `${relay.url}/hooks/${RELAY_SECRET}`,
      bodies: body,
      count: 500,
      concurrency: 64,
    }); // warm-up
    await postBurst({ url: bare.url, bodies: body, count: 500, concurrency: 64 });
    const durable = await postBurst({
      url: `${relay.url}/hooks/${RELAY_SECRET}`,
      bodies: body,
      count,
      concurrency: 64,
    });
    const baseline = await postBurst({ url: bare.url, bodies: body, count, concurrency: 64 });
    return {
      count,
      durablePerSec: (durable.acked / durable.ms) * 1000,
      barePerSec: (baseline.acked / baseline.ms) * 1000,
      failures: durable.failures,
    };
  } finally {
    relay.stop();
    await bare.close();
  }
}

export async function benchFanout(quick: boolean) {
  const subscribers = quick ? 100 : 1000;
  const burst = quick ? 200 : 1000;
  const relay = await startRelayProc(mkdtempSync(join(tmpdir(), 'mb-bench-fanout-')));
  const agent = new Agent({ connections: subscribers + 10, pipelining: 0 });
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let received = 0;
  const streams: { destroy(): void }[] = [];
  try {
    await Promise.all(
      Array.from({ length: subscribers }, async () => {
        const res = await request(`${relay.url}/events`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${RELAY_TOKEN}` },
          bodyTimeout: 0,
        });
        streams.push(res.body);
        let buf = '';
        res.body.on('data', (chunk: Buffer) => {
          buf += chunk.toString('utf8');
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const m = /"n":(\d+)/.exec(frame);
            if (!m) continue;
            const t0 = sentAt.get(Number(m[1]));
            if (t0 !== undefined) latencies.push(nowMs() - t0);
            received++;
          }
        });
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const sender = new Agent({ connections: 64 });
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < burst) {
          const n = next++;
          sentAt.set(n, nowMs());
          const res = await request(`${relay.url}/hooks/${RELAY_SECRET}`, {
            method: 'POST',
            dispatcher: sender,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'post_created', n }),
          });
          await res.body.dump();
        }
      }),
    );
    const deadline = Date.now() + 60_000;
    while (received < subscribers * burst && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await sender.close();
    return {
      subscribers,
      burst,
      delivered: received,
      expected: subscribers * burst,
      latency: summarize(latencies),
    };
  } finally {
    streams.forEach((s) => s.destroy());
    relay.stop();
    await agent.destroy();
  }
}
