/**
 * Issue #12: the relay never strands a reader. Large backlogs replay in byte-bounded pages
 * with back-pressure (never cut as a "slow consumer"), a live round bigger than the cap
 * does not cut a client that reads, and a pathologically nested body is refused up front.
 */
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { SECRET, TOKEN, openSseReader, pageAll, post, tempDir, waitFor } from './helpers.js';
import { startRedis, type TestRedis } from './redis-server.js';

const auth = { authorization: `Bearer ${TOKEN}` };
let relay: RunningRelay | null = null;
let redis: TestRedis | null = null;
afterEach(async () => {
  await relay?.close();
  relay = null;
  await redis?.stop();
  redis = null;
});

/** The same behaviour on both backends: the SQLite file and Redis Streams. */
const BACKENDS = ['sqlite', 'redis'] as const;
async function startOn(
  backend: (typeof BACKENDS)[number],
  opts: { maxQueuedBytesPerClient?: number } = {},
): Promise<RunningRelay> {
  if (backend === 'redis') redis = await startRedis();
  return startRelay({
    dataDir: tempDir(),
    secret: SECRET,
    token: TOKEN,
    ...opts,
    ...(redis ? { redis: { url: redis.url } } : {}),
  });
}

/** A notification padded to about `bytes`, numbered so order can be checked. */
const padded = (n: number, bytes: number) =>
  JSON.stringify({ type: 'post_created', n, pad: 'x'.repeat(bytes - 60) });

async function sendAll(url: string, bodies: string[], parallel: number): Promise<void> {
  const agent = new Agent({ connections: parallel });
  for (let i = 0; i < bodies.length; i += parallel) {
    const statuses = await Promise.all(
      bodies.slice(i, i + parallel).map(async (body) => {
        const res = await request(url, { method: 'POST', dispatcher: agent, body });
        await res.body.dump();
        return res.statusCode;
      }),
    );
    expect(statuses.every((s) => s === 204)).toBe(true);
  }
  await agent.close();
}

const ns = (frames: { event: string; data: string }[]) =>
  frames
    .filter((f) => f.event === 'notification')
    .map((f) => (JSON.parse(f.data) as { n: number }).n);

describe.each(BACKENDS)('replaying a large backlog (%s)', (backend) => {
  it('gives a resume from 0 all of 600 × 20 KB and 10 × 1 MiB webhooks, in order, uncut', async () => {
    relay = await startOn(backend);
    // One at a time: posts in parallel may be stored in any order (large bodies arrive in
    // many reads), and this test checks the replay keeps the stored order.
    await sendAll(
      relay.webhookUrl,
      Array.from({ length: 600 }, (_, i) => padded(i, 20_000)),
      1,
    );
    await sendAll(
      relay.webhookUrl,
      Array.from({ length: 10 }, (_, i) => padded(600 + i, 1024 * 1024 - 100)),
      1,
    );
    const stream = await openSseReader(`${relay.url}/events`, { ...auth, 'last-event-id': '0' });
    await waitFor(
      () => ns(stream.frames).length >= 610 || stream.closed(),
      'the whole replay',
      60_000,
    );
    expect(stream.closed()).toBe(false);
    expect(ns(stream.frames)).toEqual(Array.from({ length: 610 }, (_, i) => i));
    // Live after the replay: the next webhook follows on the same stream.
    expect((await post(relay.webhookUrl, padded(610, 200))).status).toBe(204);
    await waitFor(() => ns(stream.frames).length === 611, 'the live webhook');
    stream.close();
    expect(await relay.metrics()).toMatch(/^macrobell_relay_slow_disconnects_total 0$/m);
    // The JSON pages are bounded by bytes too, and still hand over everything in order.
    const paged = await pageAll(relay.url);
    expect(paged.map((e) => e.body.n)).toEqual(Array.from({ length: 611 }, (_, i) => i));
  }, 120_000);

  it('does not cut a live client that reads when one round is bigger than the cap', async () => {
    relay = await startOn(backend, { maxQueuedBytesPerClient: 256 * 1024 });
    const stream = await openSseReader(`${relay.url}/events`, auth);
    const r = relay;
    await waitFor(
      async () => /^macrobell_relay_connected_clients 1$/m.test(await r.metrics()),
      'the client',
    );
    // One 1 MiB frame per round, each over the cap; the next is sent once the client has
    // read the last, so only the round size is under test, not how busy the machine is.
    for (let i = 0; i < 10; i++) {
      expect((await post(r.webhookUrl, padded(i, 1024 * 1024 - 100))).status).toBe(204);
      await waitFor(() => ns(stream.frames).includes(i) || stream.closed(), `frame ${i}`, 30_000);
    }
    stream.close();
    expect(ns(stream.frames).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, i) => i),
    );
    expect(await r.metrics()).toMatch(/^macrobell_relay_slow_disconnects_total 0$/m);
  }, 60_000);
});

describe.each(BACKENDS)('deeply nested JSON (%s)', (backend) => {
  it('refuses a 20,000-deep body with 400 and keeps streaming later webhooks', async () => {
    relay = await startOn(backend);
    const stream = await openSseReader(`${relay.url}/events`, { ...auth, 'last-event-id': '0' });
    expect((await post(relay.webhookUrl, padded(1, 100))).status).toBe(204);
    const deep = `{"type":"post_created","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const refused = await post(relay.webhookUrl, deep);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({
      error: 'too_deeply_nested',
      message: expect.stringMatching(/deeper than 64 levels/) as unknown,
    });
    // Brackets inside strings are text, not nesting.
    const inString = JSON.stringify({ type: 'post_created', n: 2, s: '['.repeat(1000) });
    expect((await post(relay.webhookUrl, inString)).status).toBe(204);
    expect((await post(relay.webhookUrl, padded(3, 100))).status).toBe(204);
    await waitFor(() => ns(stream.frames).length >= 3, 'the later webhooks');
    stream.close();
    expect(ns(stream.frames)).toEqual([1, 2, 3]);
    expect((await pageAll(relay.url)).map((e) => e.body.n)).toEqual([1, 2, 3]);
    expect(await relay.metrics()).toMatch(/^macrobell_relay_rejected_total 1$/m);
  });
});
