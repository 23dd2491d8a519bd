/**
 * One trader re-reading a large eventDates window through the desk gateway (issue #44):
 * webhook ingest latency on the relay while 4 readers re-read a ~6 MB window (each read a
 * millisecond apart, so every one is a cut of the one kept answer), against quiet. The
 * relay runs as its own process (the CLI); the service is a loopback stand-in that answers
 * a token and one large list of dates (the simulator's year of dates is ~0.1 MB).
 *
 *   npx tsx bench/gateway-reread-bench.ts [seconds=10]
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { openRelayDatabase } from '../src/relay/db/relay-db.js';
import { UserDirectory } from '../src/relay/users/users.js';
import { startProc } from './procs.js';
import { fmt, summarize } from './lib.js';

const SECONDS = Number(process.argv[2] ?? 10);
const SECRET = 'bench-reread-secret';
const DAY = 86_400_000;
const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

/** Each webhook's ingest latency (ms), with when it was sent (performance.now()). */
async function ingest(url: string, seconds: number): Promise<{ at: number; ms: number }[]> {
  const out: { at: number; ms: number }[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const t = performance.now();
    const res = await request(`${url}/hooks/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'bench_ping', n: i, at: Date.now() }),
    });
    await res.body.dump();
    if (res.statusCode !== 204) throw new Error(`ingest answered ${res.statusCode}`);
    out.push({ at: t, ms: performance.now() - t });
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}

/** ~6.4 MB of dates spread over the window, in the service's shape (padded notes). */
function bigWindow(from: number, to: number): Buffer {
  const n = 16_000;
  const items = Array.from({ length: n }, (_, i) => ({
    id: `ed-${i}`,
    eventId: `ev-${i % 400}`,
    dateUtc: new Date(from + Math.floor(((to - from) * i) / n)).toISOString(),
    name: `Bench Indicator ${i % 400}`,
    countryCode: 'US',
    currencyCode: 'USD',
    volatility: 'HIGH',
    actual: null,
    consensus: 1.5,
    previous: 1.2,
    revised: null,
    notes: 'x'.repeat(200),
  }));
  return Buffer.from(JSON.stringify(items));
}

async function startService(body: Buffer) {
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'POST' && req.url?.startsWith('/auth/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ access_token: 'bench-access', token_type: 'Bearer', expires_in: 3600 }),
      );
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    authUrl: `${url}/auth`,
    calendarUrl: `${url}/calendar`,
    newsUrl: `${url}/news`,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function main() {
  // The widest window the gateway rounds (300 days).
  const from = Math.floor(Date.now() / 60_000) * 60_000 - 150 * DAY;
  const to = from + 300 * DAY;
  const sim = await startService(bigWindow(from, to));
  const data = mkdtempSync(join(tmpdir(), 'mb-bench-reread-'));
  const db = openRelayDatabase(data);
  const { token } = new UserDirectory(db).add('mallory');
  db.close();
  const relay = await startProc(
    [
      'src/relay/cli.ts',
      '--port',
      '0',
      '--data',
      data,
      '--auth-url',
      sim.authUrl,
      '--calendar-url',
      sim.calendarUrl,
      '--news-url',
      sim.newsUrl,
    ],
    {
      MACROBELL_RELAY_SECRET: SECRET,
      MACROBELL_RELAY_TOKEN: 'bench-reread-legacy',
      MACROBELL_PUBLIC_KEY: 'bench-pub',
      MACROBELL_PRIVATE_KEY: 'bench-priv',
      LOG_LEVEL: 'warn',
    },
    /relay listening on (\S+)/,
  );
  try {
    const read = async (endMs: number) => {
      const res = await request(
        `${relay.url}/service/calendar/en/api/v1/eventDates/${at(process.env.UNCUT ? from : from + 1)}/${at(endMs)}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const body = await res.body.arrayBuffer();
      return { status: res.statusCode, bytes: body.byteLength };
    };
    const first = await read(to);
    console.log(`window: ${(first.bytes / 1e6).toFixed(2)} MB (status ${first.status})`);

    const quiet = summarize((await ingest(relay.url, SECONDS)).map((x) => x.ms));
    const statuses = new Map<number, number>();
    let burstSpent = Number.POSITIVE_INFINITY;
    let reading = true;
    const readers = Array.from({ length: 4 }, async (_, k) => {
      for (let i = 0; reading; i++) {
        const r = await read(process.env.UNCUT ? to : to - 1 - ((i * 4 + k) % 50_000));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 429) burstSpent = Math.min(burstSpent, performance.now());
      }
    });
    const samples = await ingest(relay.url, SECONDS);
    reading = false;
    await Promise.all(readers);
    const busy = summarize(samples.map((x) => x.ms));
    // Once the burst is spent the trader's re-reads are paced by the bucket.
    const paced = summarize(samples.filter((x) => x.at > burstSpent).map((x) => x.ms));
    const row = (name: string, s: ReturnType<typeof summarize>) =>
      `${name}: n=${s.n} p50=${fmt(s.p50)} ms p99=${fmt(s.p99)} ms max=${fmt(s.max)} ms`;
    console.log(row('ingest, quiet', quiet));
    console.log(row('ingest, re-reads', busy));
    console.log(row('ingest, re-reads, once the burst is spent', paced));
    console.log(`re-reads: ${JSON.stringify(Object.fromEntries(statuses))}`);
  } finally {
    await relay.stopAndWait();
    await sim.close();
  }
}

await main();
