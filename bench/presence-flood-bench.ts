/**
 * Issue #35 item 1, measured: webhook ingest latency (p50/p99, one webhook at a time)
 * on a quiet desk relay, while one trader token makes 2,000 fake desktops (and keeps
 * trying new ones, 25 at a time: an HTTP flood on top) and after it made them, with an
 * admin snapshot read every second all along; and the relay's peak RSS. On a SQLite relay and on two Redis nodes. `npx tsx bench/presence-flood-bench.ts`
 * prints the figures as JSON (not part of `npm run bench`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { fmt, nowMs, summarize } from './lib.js';
import { RELAY_SECRET, startRelayProc, type Proc } from './procs.js';
import { startRedisProc } from './redis-proc.js';

const FAKE = 2_000;
const SAMPLES = 400;

function relayCmd(args: string[]): string {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/relay/cli.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, MACROBELL_RELAY_TOKEN: '', LOG_LEVEL: 'warn' },
  });
  return out.trimEnd().split('\n').at(-1) as string;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

function openAs(url: string, token: string, desktop: string): Promise<number> {
  return new Promise((resolve) => {
    const headers = { authorization: `Bearer ${token}`, 'x-macrobell-desktop': desktop };
    const req = httpRequest(`${url}/events`, { headers, agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function postOne(url: string, n: number): Promise<number> {
  const t = nowMs();
  const res = await request(`${url}/hooks/${RELAY_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'eventDate_updated', n }),
  });
  await res.body.dump();
  if (res.statusCode !== 204) throw new Error(`webhook answered ${res.statusCode}`);
  return nowMs() - t;
}

async function ingest(url: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let n = 0; n < count; n++) out.push(await postOne(url, n));
  return out;
}

async function run(nodes: Proc[], token: string, admin: string) {
  const pids = nodes.map((n) => n.child.pid as number);
  const urls = nodes.map((n) => n.url);
  for (let n = 0; n < 1_100; n += 50)
    await Promise.all(Array.from({ length: 50 }, (_, k) => postOne(urls[0] as string, n + k)));
  let peak = Math.max(...pids.map(rssMb));
  const sampler = setInterval(() => (peak = Math.max(peak, ...pids.map(rssMb))), 100);
  let stop = false;
  const snapshots = (async () => {
    while (!stop) {
      const res = await request(`${urls.at(-1)}/admin`, {
        headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
      });
      await res.body.dump();
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  const quiet = summarize(await ingest(urls[0] as string, SAMPLES));
  // Baseline: the same flood with a wrong token (401s): what any HTTP flood costs.
  let plainStop = false;
  const plain = (async () => {
    for (let i = 0; !plainStop; i += 25)
      await Promise.all(
        Array.from({ length: 25 }, (_, k) =>
          openAs(urls[(i + k) % urls.length] as string, 'mbu_wrong', `plain-${i + k}-xx`),
        ),
      );
  })();
  const plainFlood = summarize(await ingest(urls[0] as string, SAMPLES));
  plainStop = true;
  await plain;
  const statuses: Record<number, number> = {};
  let made = 0;
  const attack = (async () => {
    while (!stop) {
      const batch = Array.from({ length: 25 }, (_, k) =>
        openAs(urls[(made + k) % urls.length] as string, token, `fake-desktop-${made + k}-x`),
      );
      made += 25;
      for (const s of await Promise.all(batch)) statuses[s] = (statuses[s] ?? 0) + 1;
    }
  })();
  while (made < FAKE) await new Promise((r) => setTimeout(r, 20));
  const attacked = summarize(await ingest(urls[0] as string, SAMPLES));
  const flooding = stop;
  stop = true;
  await attack;
  // After: the 2,000+ fake desktops made, admin snapshots still read every second.
  stop = flooding;
  const after = summarize(await ingest(urls[0] as string, SAMPLES));
  stop = true;
  await snapshots;
  clearInterval(sampler);
  const f = (s: ReturnType<typeof summarize>) => `p50 ${fmt(s.p50, 2)} / p99 ${fmt(s.p99, 2)} ms`;
  return {
    quiet: f(quiet),
    duringWrongTokenFlood: f(plainFlood),
    duringFlood: f(attacked),
    afterFlood: f(after),
    p99RatioDuring: fmt(attacked.p99 / quiet.p99, 2),
    p99RatioAfter: fmt(after.p99 / quiet.p99, 2),
    fakeDesktopsTried: made,
    statuses,
    peakRssMb: fmt(peak, 0),
  };
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = {};
  {
    const data = mkdtempSync(join(tmpdir(), 'mb-flood-bench-'));
    const token = relayCmd(['users', 'add', 'mallory', '--data', data]);
    const admin = relayCmd(['admins', 'add', 'lead', '--data', data]);
    const relay = await startRelayProc(data);
    results.sqlite = await run([relay], token, admin);
    await relay.stopAndWait();
  }
  {
    const redis = await startRedisProc();
    const data = mkdtempSync(join(tmpdir(), 'mb-flood-bench-'));
    const token = relayCmd(['users', 'add', 'mallory', '--redis', redis.url]);
    const admin = relayCmd(['admins', 'add', 'lead', '--redis', redis.url]);
    const nodes = [
      await startRelayProc(data, { redisUrl: redis.url }),
      await startRelayProc(data, { redisUrl: redis.url }),
    ];
    results.redisTwoNodes = await run(nodes, token, admin);
    for (const n of nodes) await n.stopAndWait();
    await redis.stop();
  }
  console.log(JSON.stringify(results, null, 2));
}

void main();
