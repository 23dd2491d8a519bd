/**
 * A node whose link to Redis freezes (#43 item 3: SIGSTOP-like, the connection stays open
 * and nothing answers — not refused) lets its traders go: within seconds its /healthz turns
 * 503 with the reason, its streams end with `event: unavailable` and new ones are refused,
 * and each desktop moves to the healthy node of its list, every event applied once, in
 * order. Its /metrics answers at once meanwhile, with the store's figures as last known and
 * marked stale (it waited on the frozen link for ~10 s). The link thawed, the node takes
 * webhooks again. Two nodes on one real Redis, node b's link through a TCP proxy that stops
 * forwarding.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayStatus } from '../../../src/main/sync/live-source.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { SECRET, TOKEN, post, tempDir, waitFor } from '../relay/helpers.js';
import { startRedis } from '../relay/redis-server.js';
import { startCuttableProxy } from './desktops.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** The bound: a cut-off node's traders are elsewhere within this. */
const MOVED_WITHIN_MS = 10_000;

interface Trader {
  applied: number[];
  /** When (performance.now()) the stream was last opened on each node. */
  openedOn: Map<string, number>;
  errors: string[];
}

function startTrader(urls: string): Trader & { consumer: RelayConsumer } {
  const trader: Trader = { applied: [], openedOn: new Map(), errors: [] };
  let cursor: string | null = null;
  let previous: RelayStatus | null = null;
  const consumer = new RelayConsumer({
    url: urls,
    token: async () => TOKEN,
    getLastEventId: () => cursor,
    applier: {
      one: async (id, payload) => {
        trader.applied.push((payload as { n: number }).n);
        cursor = id;
      },
    },
    onReset: async () => undefined,
    onReconnectGap: async () => undefined,
    onStatus: (s) => {
      if (s.connected && !previous?.connected && s.node)
        trader.openedOn.set(s.node, performance.now());
      if (s.error && s.error !== previous?.error) trader.errors.push(s.error);
      previous = s;
    },
    backoff: { minMs: 50, maxMs: 200 },
  });
  consumer.start();
  cleanups.push(() => consumer.stop());
  return { ...trader, consumer };
}

describe('a node whose link to the store freezes', () => {
  it('turns /healthz 503, ends and refuses its streams; its traders move within 10 s', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const link = await startCuttableProxy(redis.url);
    cleanups.push(() => link.close());
    const node = async (redisUrl: string): Promise<RunningRelay> => {
      const relay = await startRelay({
        dataDir: tempDir('mb-frozen-'),
        secret: SECRET,
        token: TOKEN,
        heartbeatMs: 200,
        redis: { url: redisUrl },
      });
      cleanups.push(() => relay.close());
      return relay;
    };
    const a = await node(redis.url);
    const b = await node(`redis://127.0.0.1:${new URL(link.url).port}/0`);
    // Both traders start on b, the node whose link will freeze.
    const traders = [startTrader(`${b.url}, ${a.url}`), startTrader(`${b.url}, ${a.url}`)];
    await waitFor(() => traders.every((t) => t.openedOn.has(b.url)), 'both traders on node b');
    const send = async (n: number) =>
      expect((await post(a.webhookUrl, JSON.stringify({ type: 't', n }))).status).toBe(204);
    await send(1);
    await send(2);
    await waitFor(() => traders.every((t) => t.applied.length === 2), 'two events via node b');
    const scrape = async (relay: RunningRelay) => {
      const started = performance.now();
      const res = await request(`${relay.url}/metrics`);
      const text = await res.body.text();
      return { status: res.statusCode, text, ms: performance.now() - started };
    };
    const fresh = await scrape(b);
    expect(fresh.text).toMatch(/^macrobell_relay_log_rows 2$/m);
    expect(fresh.text).toMatch(/^macrobell_relay_log_stats_stale 0$/m);
    expect(fresh.text).toMatch(/^macrobell_relay_desktops_connected_stale 0$/m);

    const health = async (relay: RunningRelay) => {
      const res = await request(`${relay.url}/healthz`);
      return { status: res.statusCode, body: (await res.body.json()) as { reason?: string } };
    };
    const frozenAt = performance.now();
    link.freeze(); // Redis is up and node a uses it; node b's link answers nothing
    await waitFor(async () => (await health(b)).status === 503, "node b's /healthz 503");
    expect((await health(b)).body.reason).toMatch(/^Redis stopped answering this node/);
    expect((await health(a)).status).toBe(200);
    await waitFor(() => traders.every((t) => t.openedOn.has(a.url)), 'both traders on node a');
    for (const t of traders) {
      expect((t.openedOn.get(a.url) as number) - frozenAt).toBeLessThan(MOVED_WITHIN_MS);
      // Told why, in the node's words (the stream's last frame).
      expect(t.errors).toContainEqual(
        expect.stringMatching(/^the relay node cannot reach its store: Redis stopped answering/),
      );
    }
    // A new stream on b is refused while its link is frozen (the desktop tries the next).
    const refused = await request(`${b.url}/events`, {
      headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' },
    });
    expect(refused.statusCode).toBe(503);
    expect(((await refused.body.json()) as { error: string }).error).toBe('store_cut_off');

    expect(await b.metrics()).toMatch(/^macrobell_relay_store_cut_off_disconnects_total 2$/m);
    // Scraped while frozen: at once, the last known figures, marked stale.
    const frozen = await scrape(b);
    expect(frozen.status).toBe(200);
    expect(frozen.ms).toBeLessThan(1_500);
    expect(frozen.text).toMatch(/^macrobell_relay_log_rows 2$/m);
    expect(frozen.text).toMatch(/^macrobell_relay_log_stats_stale 1$/m);
    expect(frozen.text).toMatch(/^macrobell_relay_desktops_connected_stale 1$/m);
    expect((await scrape(b)).ms).toBeLessThan(1_500);
    await send(3);
    await waitFor(() => traders.every((t) => t.applied.length === 3), 'the next event via node a');

    link.thaw();
    await waitFor(async () => (await health(b)).status === 200, "node b's /healthz 200 again");
    await waitFor(
      async () => /^macrobell_relay_log_stats_stale 0$/m.test((await scrape(b)).text),
      "node b's figures fresh again",
    );
    expect((await post(b.webhookUrl, JSON.stringify({ type: 't', n: 4 }))).status).toBe(204);
    await waitFor(() => traders.every((t) => t.applied.length === 4), 'an event stored via b');
    for (const t of traders) expect(t.applied).toEqual([1, 2, 3, 4]);
  }, 60_000);
});
