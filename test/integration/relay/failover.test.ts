/**
 * The app's relay consumer with an HA pair (issue #15 item 5): an ordered list of relay
 * URLs on one Redis; when the node in use goes away the consumer moves to the next with
 * its last id, and back again when that one fails — every event applied once, in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayStatus } from '../../../src/main/sync/live-source.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { SECRET, TOKEN, post, tempDir, waitFor } from './helpers.js';
import { startRedis } from './redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('relay failover in the app', () => {
  it('moves to the next relay URL when one fails and back, resuming from its last id', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const node = async (port = 0): Promise<RunningRelay> => {
      const r = await startRelay({
        dataDir: tempDir(),
        secret: SECRET,
        token: TOKEN,
        port,
        heartbeatMs: 200,
        redis: { url: redis.url },
      });
      cleanups.push(() => r.close());
      return r;
    };
    let a = await node();
    const b = await node();
    const applied: { id: string; n: number }[] = [];
    let cursor: string | null = '0';
    const statuses: RelayStatus[] = [];
    const consumer = new RelayConsumer({
      url: `${a.url}, ${b.url}`,
      token: async () => TOKEN,
      getLastEventId: () => cursor,
      applier: {
        one: async (id, payload) => {
          applied.push({ id, n: (payload as { n: number }).n });
          cursor = id;
        },
      },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: (s) => statuses.push(s),
      watchdogMs: 1_000,
      backoff: { minMs: 20, maxMs: 200 },
    });
    cleanups.push(() => consumer.stop());
    consumer.start();
    const send = async (via: RunningRelay, from: number, to: number) => {
      for (let n = from; n <= to; n++)
        expect((await post(via.webhookUrl, JSON.stringify({ type: 't', n }))).status).toBe(204);
    };
    await send(a, 1, 3);
    await waitFor(() => applied.length === 3, 'three events via node A');
    expect(statuses.at(-1)?.node).toBe(a.url);
    await a.close(); // node A goes away: on to B, from the last id
    await send(b, 4, 6);
    await waitFor(() => applied.length === 6, 'three more via node B');
    await waitFor(() => statuses.some((s) => s.connected && s.node === b.url), 'status on B');
    a = await node(a.port); // A is back; then B fails: round the list to A
    await b.close();
    await send(a, 7, 9);
    await waitFor(() => applied.length === 9, 'the rest via node A again');
    expect(statuses.at(-1)?.node).toBe(a.url);
    expect(applied.map((x) => x.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(applied.map((x) => x.id)).size).toBe(9);
  }, 60_000);
});
