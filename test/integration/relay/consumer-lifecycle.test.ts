/**
 * Issue #42, item 5: the relay consumer's life cycle. `stop()` while the consumer awaited
 * its token (a keychain read, a desk token exchange) still opened a stream afterwards — a
 * second stream from one desktop, and a `stop()` that never returned.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A stand-in relay that counts the streams opened, keeps each open, sends `frames` first. */
async function countingRelay(frames = '') {
  const streams: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.url !== '/events') return void res.writeHead(404).end();
    streams.push(res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`: hi\n\n${frames}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, streams };
}

describe('relay consumer life cycle', () => {
  it('stopped while it awaits its token: stop() returns and no stream ever opens', async () => {
    const relay = await countingRelay();
    let giveToken: (t: string) => void = () => undefined;
    let asked = 0;
    const consumer = new RelayConsumer({
      url: relay.url,
      token: () => {
        asked++;
        return new Promise<string>((resolve) => (giveToken = resolve));
      },
      getLastEventId: () => null,
      applier: { one: async () => undefined },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: () => undefined,
      backoff: { minMs: 10, maxMs: 20 },
    });
    consumer.start();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(asked).toBe(1);
    const stopped = consumer.stop();
    giveToken('mbu_token');
    await stopped;
    // A second consumer started and stopped normally is the control: it does open one.
    let connected: () => void = () => undefined;
    const live = new Promise<void>((resolve) => (connected = resolve));
    const control = new RelayConsumer({
      url: relay.url,
      token: async () => 'mbu_token',
      getLastEventId: () => null,
      applier: { one: async () => undefined },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: (s) => s.connected && connected(),
    });
    control.start();
    await live;
    await control.stop();
    expect(relay.streams).toHaveLength(1);
  });
});

describe('a desk replay', () => {
  it('that fails for a retryable reason is tried again until it applies, once; the stream stays', async () => {
    const body = { type: 'eventDate_updated', eventDateId: 'nfp' };
    const relay = await countingRelay(
      `event: replay\ndata: ${JSON.stringify({ id: '7', receivedAt: 1, body })}\n\n`,
    );
    let tries = 0;
    const applied: string[] = [];
    let done: () => void = () => undefined;
    const appliedOnce = new Promise<void>((resolve) => (done = resolve));
    const consumer = new RelayConsumer({
      url: relay.url,
      token: async () => 'mbu_token',
      getLastEventId: () => null,
      applier: {
        one: async () => undefined,
        replay: async (item) => {
          // A network hiccup twice (the applier rethrows only retryable failures).
          if (++tries <= 2) throw new Error('ECONNRESET while fetching the event');
          applied.push(item.id);
          done();
        },
      },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: () => undefined,
      backoff: { minMs: 10, maxMs: 40 },
    });
    closers.push(() => consumer.stop());
    consumer.start();
    await appliedOnce;
    expect(tries).toBe(3);
    expect(applied).toEqual(['7']);
    expect(relay.streams).toHaveLength(1); // the stream was never dropped for it
  });
});
