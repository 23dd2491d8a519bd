// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/** The app's relay consumer against a real relay and the simulator. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayStatus } from '../../../src/main/sync/live-source.js';
import { RelayConsumer, TOKEN_REJECTED } from '../../../src/main/sync/relay-consumer.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { startCuttableProxy } from '../desk-ops/desktops.js';
import { simulatorToken } from '../../support/simulator-token.js';
import { SECRET, TOKEN, post, tempDir, waitFor } from './helpers.js';

let relay: RunningRelay | null = null;
let sim: RunningSimulator | null = null;
let consumer: RelayConsumer | null = null;
afterEach(async () => {
  await consumer?.stop();
  await relay?.close();
  await sim?.close();
  consumer = relay = sim = null;
});

function makeConsumer(url: string, cursor: { id: number | null }, token = TOKEN) {
  const applied: { id: number; payload: unknown }[] = [];
  const resets: number[] = [];
  const statuses: RelayStatus[] = [];
  const c = new RelayConsumer({
    url,
    token: async () => token,
    getLastEventId: () => (cursor.id === null ? null : String(cursor.id)),
    applier: {
      one: async (raw, payload) => {
        const id = Number(raw);
        applied.push({ id, payload });
        cursor.id = id;
      },
      // where a stream opened with no id began: the first cursor (RelayApplier.start)
      start: (raw) => {
        cursor.id ??= Number(raw);
      },
    },
    onReset: async () => void resets.push(Date.now()),
    onReconnectGap: async () => undefined,
    onStatus: (s) => statuses.push(s),
    backoff: { minMs: 20, maxMs: 200 },
  });
  return { c, applied, resets, statuses };
}

describe('relay consumer', () => {
  it('receives what the simulator delivers to the relay, in order, with lag reported', async () => {
    sim = await startSimulator({ port: 0, seed: 5, autoplay: false, log: () => undefined });
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const tok = await simulatorToken(sim, 'calendar');
    const reg = await request(`${sim.calendarUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: relay.webhookUrl }),
    });
    expect(reg.statusCode).toBe(201);
    await reg.body.dump();
    const cursor = { id: null as number | null };
    const t = makeConsumer(relay.url, cursor);
    consumer = t.c;
    consumer.start();
    await waitFor(() => t.statuses.some((s) => s.connected), 'the connection');
    const targets = [...sim.state.eventDates.values()].filter((d) => d.actual === null).slice(0, 3);
    expect(targets).toHaveLength(3);
    const patchedFrom = Date.now();
    for (const [i, d] of targets.entries()) {
      const res = await request(`${sim.url}/_sim/event-dates/${d.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ actual: i + 0.5 }),
      });
      expect(res.statusCode).toBeLessThan(300);
      await res.body.dump();
    }
    await waitFor(() => t.applied.length >= 3, 'three notifications');
    const appliedBy = Date.now();
    const ids = t.applied.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const updated = t.applied.map((a) => (a.payload as { eventDateId?: string }).eventDateId);
    for (const d of targets) expect(updated).toContain(d.id);
    const last = t.statuses.at(-1) as RelayStatus;
    expect(last.lastEventId).toBe(String(ids.at(-1)));
    // received by the relay after the first PATCH, applied before the wait ended
    expect(last.lagMs).toBeTypeOf('number');
    expect(last.lagMs as number).toBeLessThanOrEqual(appliedBy - patchedFrom);
  });

  it('stopped while webhooks arrive, catches up on restart exactly once each, in order', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const cursor = { id: 0 as number | null };
    const t = makeConsumer(relay.url, cursor);
    consumer = t.c;
    consumer.start();
    for (let n = 1; n <= 5; n++) await post(relay.webhookUrl, JSON.stringify({ type: 'x', n }));
    await waitFor(() => t.applied.length === 5, 'the first five');
    await consumer.stop();
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(relay!.webhookUrl, JSON.stringify({ type: 'x', n: 6 + i })),
      ),
    );
    consumer.start();
    await waitFor(() => t.applied.length >= 205, 'the catch-up');
    await post(relay.webhookUrl, JSON.stringify({ type: 'x', n: 206 }));
    await waitFor(() => t.applied.length >= 206, 'the next live one');
    expect(t.applied.map((a) => a.id)).toEqual(Array.from({ length: 206 }, (_, i) => i + 1));
    expect(new Set(t.applied.map((a) => (a.payload as { n: number }).n)).size).toBe(206);
  });

  it('with no cursor yet, resumes from where its first stream began when it drops before any event', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    for (let n = 1; n <= 3; n++) await post(relay.webhookUrl, JSON.stringify({ type: 'x', n }));
    const proxy = await startCuttableProxy(relay.url);
    try {
      const cursor = { id: null as number | null };
      const t = makeConsumer(proxy.url, cursor);
      consumer = t.c;
      consumer.start();
      // The relay tells a stream opened without an id where it starts: after the three.
      await waitFor(() => cursor.id === 3, 'the stream position as the first cursor');
      proxy.drop();
      await waitFor(() => t.statuses.at(-1)?.connected === false, 'the stream cut');
      for (let n = 4; n <= 7; n++) await post(relay.webhookUrl, JSON.stringify({ type: 'x', n }));
      proxy.restore();
      await waitFor(() => t.applied.length >= 4, 'what was stored while it was away');
      expect(t.applied.map((a) => a.id)).toEqual([4, 5, 6, 7]);
      expect(t.resets).toHaveLength(0);
    } finally {
      await consumer?.stop();
      await proxy.close();
    }
  });

  it('after a reset for a replaced relay log, re-syncs and applies the new lower ids', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    for (let n = 1; n <= 3; n++) await post(relay.webhookUrl, JSON.stringify({ type: 'x', n }));
    const cursor = { id: 900 as number | null }; // from the old relay's log
    const t = makeConsumer(relay.url, cursor);
    consumer = t.c;
    consumer.start();
    await waitFor(() => t.applied.length === 3, 'the new log');
    expect(t.resets).toHaveLength(1);
    expect(t.applied.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(cursor.id).toBe(3);
  });

  it('reports a rejected token and keeps retrying, slowly', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const t = makeConsumer(relay.url, { id: null }, 'wrong-token');
    consumer = t.c;
    consumer.start();
    await waitFor(() => t.statuses.some((s) => s.error === TOKEN_REJECTED), 'the error status');
    expect(t.statuses.every((s) => !s.connected)).toBe(true);
    expect(JSON.stringify(t.statuses)).not.toContain('wrong-token');
  });

  it('replaces a connection that goes silent (heartbeat watchdog)', async () => {
    let connections = 0;
    const lastIds: (string | undefined)[] = [];
    const silent = createServer((req, res) => {
      connections++;
      lastIds.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n'); // then nothing, ever
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const c = new RelayConsumer({
        url,
        token: async () => TOKEN,
        getLastEventId: () => '42',
        applier: { one: async () => undefined },
        onReset: async () => undefined,
        onReconnectGap: async () => undefined,
        onStatus: () => undefined,
        watchdogMs: 300,
        backoff: { minMs: 20, maxMs: 100 },
      });
      consumer = c;
      c.start();
      await waitFor(() => connections >= 3, 'three connections');
      expect(lastIds.slice(0, 3)).toEqual(['42', '42', '42']);
    } finally {
      await consumer?.stop();
      consumer = null;
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
