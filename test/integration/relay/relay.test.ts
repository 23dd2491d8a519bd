// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/** The relay with real processes and real HTTP on loopback. */
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { createAppService } from '../../../src/main/service.js';
import type { EventDate } from '../../../src/shared/domain.js';
import {
  SECRET,
  TOKEN,
  exited,
  pageAll,
  post,
  spawnRelay,
  tempDir as dir,
  waitFor,
} from './helpers.js';

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
    getLastEventId: () => (opts.cursor.id === null ? null : String(opts.cursor.id)),
    applier: {
      one: async (raw) => {
        const id = Number(raw);
        opts.applied.push(id);
        opts.cursor.id = id;
      },
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
    expect(await health.body.json()).toEqual({ ok: true, backend: 'sqlite', lastId: '2' });
    const stored = await pageAll(relay.url);
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
    const env = { MACROBELL_RELAY_SECRET: SECRET, MACROBELL_RELAY_TOKEN: TOKEN };
    const start = () => spawnRelay(['--port', '0', '--data', data], env);
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
      const rows = await pageAll(second.url);
      const stored = new Set(rows.map((e) => e.body.n as number));
      const lost = [...acked].filter((n) => !stored.has(n));
      expect(lost).toEqual([]);
      // Each stored once, ids strictly increasing, and the log keeps growing after a restart.
      expect(stored.size).toBe(rows.length);
      expect(rows.every((r, i) => i === 0 || Number(r.id) > Number(rows[i - 1]?.id))).toBe(true);
      expect((await post(`${second.url}/hooks/${SECRET}`, '{"type":"after"}')).status).toBe(204);
      const after = await pageAll(second.url);
      expect(Number(after.at(-1)?.id)).toBeGreaterThan(Number(rows.at(-1)?.id ?? 0));
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  }, 120_000);
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
    expect(await relay.log.trim(7 * 86_400_000)).toBe(30);
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
      // A marker stored after the duplicate: the app applies strictly in order, so once the
      // marker is applied the duplicate was handled too — no sleep needed to prove absence.
      expect((await post(relay.webhookUrl, JSON.stringify({ type: 'test_marker' }))).status).toBe(
        204,
      );
      const stored = await pageAll(relay.url);
      expect(stored.filter((e) => e.body.type === 'eventDate_updated').length).toBeGreaterThan(1);
      const markerId = stored.at(-1)?.id;
      expect(stored.at(-1)?.body.type).toBe('test_marker');
      await waitFor(
        async () => (await service.api.getStatus()).relay?.lastEventId === markerId,
        'the marker to be applied',
      );
      expect(released.filter((id) => id === target.id)).toHaveLength(1);
      const status = await service.api.getStatus();
      expect(status.mode).toBe('relay');
      expect(Number(status.relay?.lastEventId)).toBeGreaterThanOrEqual(2);
    } finally {
      await service.stop();
      await relay.close();
      await sim.close();
    }
  });
});
