/** The relay with real processes and real HTTP on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { createAppService } from '../../../src/main/service.js';
import type { EventDate } from '../../../src/shared/domain.js';

const dir = () => mkdtempSync(join(tmpdir(), 'mb-relay-'));
const SECRET = 'test-secret-path';
const TOKEN = 'test-desktop-token';

async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await request(url, { method: 'POST', headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

async function pageAll(relay: { url: string }, token = TOKEN) {
  const out: { id: number; body: { type: string; n?: number } }[] = [];
  let after = 0;
  for (let i = 0; i < 1000; i++) {
    const res = await request(`${relay.url}/events/page?after=${after}&limit=1000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const page = (await res.body.json()) as {
      events: { id: number; body: { type: string; n?: number } }[];
      nextAfter: number;
      hasMore: boolean;
    };
    out.push(...page.events);
    after = page.nextAfter;
    if (!page.hasMore) break;
  }
  return out;
}

function consumer(
  relayUrl: string,
  opts: {
    cursor: { id: number | null };
    applied: number[];
    resets?: number[];
    watchdogMs?: number;
  },
) {
  return new RelayConsumer({
    url: relayUrl,
    token: async () => TOKEN,
    getLastEventId: () => opts.cursor.id,
    apply: async (id) => {
      opts.applied.push(id);
      opts.cursor.id = id;
    },
    onReset: async () => void opts.resets?.push(Date.now()),
    onReconnectGap: async () => undefined,
    onStatus: () => undefined,
    watchdogMs: opts.watchdogMs,
    backoff: { minMs: 20, maxMs: 200 },
  });
}

describe('ingest and bad input', () => {
  let relay: RunningRelay;
  afterAll(() => relay?.close());

  it('stores valid webhooks and answers every bad request correctly, staying healthy', async () => {
    relay = await startRelay({ dataDir: dir(), secret: SECRET, token: TOKEN });
    expect(
      (
        await post(
          relay.webhookUrl,
          JSON.stringify({ type: 'eventDate_updated', eventDateId: 'x' }),
        )
      ).status,
    ).toBe(204);
    expect(
      (await post(relay.webhookUrl, JSON.stringify({ type: 'brand_new_type', x: 1 }))).status,
    ).toBe(204);
    expect((await post(`${relay.url}/hooks/wrong`, '{"type":"x"}')).status).toBe(404);
    expect((await post(relay.webhookUrl, '{not json')).status).toBe(400);
    expect((await post(relay.webhookUrl, '[1,2]')).status).toBe(400);
    expect((await post(relay.webhookUrl, '{"notype":1}')).status).toBe(400);
    expect(
      (await post(relay.webhookUrl, JSON.stringify({ type: 'x', pad: 'a'.repeat(1024 * 1024) })))
        .status,
    ).toBe(413);
    const get = await request(relay.webhookUrl);
    expect(get.statusCode).toBe(405);
    await get.body.dump();
    for (const auth of [undefined, 'Bearer wrong']) {
      const r = await request(`${relay.url}/events/page`, {
        headers: auth ? { authorization: auth } : {},
      });
      expect(r.statusCode).toBe(401);
      await r.body.dump();
    }
    const health = await request(`${relay.url}/healthz`);
    expect(await health.body.json()).toEqual({ ok: true, lastId: 2 });
    const stored = await pageAll(relay);
    expect(stored.map((e) => e.body.type)).toEqual(['eventDate_updated', 'brand_new_type']);
    const metrics = await (await request(`${relay.url}/metrics`)).body.text();
    expect(metrics).toMatch(/^macrobell_relay_ingested_total 2$/m);
    expect(metrics).toMatch(/^macrobell_relay_rejected_total 4$/m);
    for (const line of metrics.split('\n').filter((l) => l && !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$/);
  });
});

describe('durability', () => {
  it('loses none of the webhooks it acknowledged when killed with SIGKILL mid-burst', async () => {
    const data = dir();
    const env = { ...process.env, MACROBELL_RELAY_SECRET: SECRET, MACROBELL_RELAY_TOKEN: TOKEN };
    const start = async (): Promise<{ child: ChildProcess; url: string }> => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/relay/cli.ts', '--port', '0', '--data', data],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /relay listening on (\S+)/.exec(out);
          if (m) resolve(m[1] as string);
        });
        child.on('exit', (code) => reject(new Error(`relay exited ${code}`)));
      });
      return { child, url };
    };
    const first = await start();
    const acked = new Set<number>();
    const agent = new Agent({ connections: 64 });
    const total = 3000;
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < total) {
        const n = next++;
        try {
          const res = await request(`${first.url}/hooks/${SECRET}`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'eventDate_updated', n }),
          });
          await res.body.dump();
          if (res.statusCode === 204) acked.add(n);
        } catch {
          /* the relay died under us: not acknowledged */
        }
        if (!killed && acked.size >= 1200) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    await agent.close().catch(() => undefined);
    expect(killed).toBe(true);
    expect(acked.size).toBeGreaterThanOrEqual(1200);
    const second = await start();
    try {
      const stored = new Set((await pageAll(second)).map((e) => e.body.n as number));
      const lost = [...acked].filter((n) => !stored.has(n));
      expect(lost).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});

describe('streaming', () => {
  let relay: RunningRelay;
  let now = Date.now();
  afterAll(() => relay?.close());

  it('resumes after an id with only later ids, then live, and resets past retention', async () => {
    relay = await startRelay({
      dataDir: dir(),
      secret: SECRET,
      token: TOKEN,
      now: () => now,
      retentionDays: 7,
    });
    for (let n = 1; n <= 10; n++)
      await post(relay.webhookUrl, JSON.stringify({ type: 'post_created', n }));
    const state = {
      cursor: { id: 5 as number | null },
      applied: [] as number[],
      resets: [] as number[],
    };
    const c = consumer(relay.url, state);
    c.start();
    await waitFor(() => state.applied.length === 5, 'replay of ids 6–10');
    expect(state.applied).toEqual([6, 7, 8, 9, 10]);
    await post(relay.webhookUrl, JSON.stringify({ type: 'post_created', n: 11 }));
    await waitFor(() => state.applied.length === 6, 'the live event');
    expect(state.applied.at(-1)).toBe(11);
    // Asleep while more arrive: on waking it catches up exactly once each, in order.
    await c.stop();
    for (let n = 12; n <= 30; n++)
      await post(relay.webhookUrl, JSON.stringify({ type: 'post_created', n }));
    c.start();
    await waitFor(() => state.applied.length === 25, 'catch-up');
    expect(state.applied).toEqual(Array.from({ length: 25 }, (_, i) => i + 6));
    await c.stop();

    // Eight days later retention trims the first batch; resuming from id 2 needs a re-sync.
    now += 8 * 86_400_000;
    await post(relay.webhookUrl, JSON.stringify({ type: 'post_created', n: 31 }));
    expect(relay.log.trim(7 * 86_400_000)).toBe(30);
    const late = {
      cursor: { id: 2 as number | null },
      applied: [] as number[],
      resets: [] as number[],
    };
    const c2 = consumer(relay.url, late);
    c2.start();
    await waitFor(
      () => late.resets.length === 1 && late.applied.length === 1,
      'reset then the kept event',
    );
    expect(late.applied).toEqual([31]);
    await c2.stop();
  });

  it('reconnects when the stream goes silent (heartbeat watchdog)', async () => {
    let connections = 0;
    const silent = createServer((req, res) => {
      connections++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const c = consumer(url, { cursor: { id: null }, applied: [], watchdogMs: 300 });
    c.start();
    await waitFor(() => connections >= 3, 'three connections');
    await c.stop();
    silent.closeAllConnections();
    silent.close();
  });
});

describe('end to end: service → relay → app', () => {
  it('delivers a release from the simulator through the relay into the app, once', async () => {
    const sim = await startSimulator({ port: 0, seed: 11, autoplay: false });
    const relay = await startRelay({ dataDir: dir(), secret: SECRET, token: TOKEN });
    const secrets = new MemorySecretStore();
    await secrets.set('publicKey', sim.clientId);
    await secrets.set('privateKey', sim.clientSecret);
    await secrets.set('relayToken', TOKEN);
    const service = await createAppService({
      dataDir: dir(),
      mode: 'real',
      secretStore: secrets,
      logFile: null,
      logLevel: 'silent',
      env: {
        MACROBELL_AUTH_URL: sim.authUrl,
        MACROBELL_CALENDAR_URL: sim.calendarUrl,
        MACROBELL_NEWS_URL: sim.newsUrl,
        MACROBELL_RELAY_URL: relay.url,
      },
    });
    const released: string[] = [];
    service.on('changes', (cs) =>
      cs.forEach((c) => c.kind === 'released' && released.push(c.eventDate.id)),
    );
    try {
      await service.start();
      const token = (await (
        await request(`${sim.authUrl}/v2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_id=${sim.clientId}&client_secret=${sim.clientSecret}&scope=calendar`,
        })
      ).body.json()) as { access_token: string };
      const reg = await request(`${sim.calendarUrl}/webhooks`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url: relay.webhookUrl }),
      });
      expect(reg.statusCode).toBe(201);
      await reg.body.dump();
      await waitFor(
        async () => (await service.api.getStatus()).relay?.connected,
        'the relay connection',
      );
      const target = [...sim.state.eventDates.values()].find(
        (d) => d.actual === null && d.consensus !== null,
      ) as EventDate;
      await fetch(`${sim.url}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deliveries: { duplicate: 1 } }),
      });
      await fetch(`${sim.url}/_sim/event-dates/${target.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ actual: 4.2 }),
      });
      await waitFor(() => released.includes(target.id), 'the release to reach the app');
      await sim.deliveriesIdle();
      await new Promise((r) => setTimeout(r, 300));
      expect(released.filter((id) => id === target.id)).toHaveLength(1);
      const status = await service.api.getStatus();
      expect(status.mode).toBe('relay');
      expect(status.relay?.lastEventId).toBeGreaterThanOrEqual(2);
    } finally {
      await service.stop();
      await relay.close();
      await sim.close();
    }
  });
});
