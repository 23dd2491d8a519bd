/**
 * The consumer reads the relay's heartbeats (#43 item 3): a node whose heartbeats say its
 * store has been silent is "behind" on the status, and the status clears when the stream
 * closes. A loopback SSE server plays the node, so the heartbeat says exactly what the test
 * needs (a real relay ends its streams itself long before: node-frozen-link.test.ts).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayStatus } from '../../../src/main/sync/live-source.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { heartbeatFrame, positionFrame } from '../../../src/relay/stream/sse-frames.js';
import { waitFor } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('relay heartbeats in the app', () => {
  it('marks the node behind while its heartbeats say its store is silent', async () => {
    let stream: ServerResponse | null = null;
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(positionFrame('7'));
      stream = res;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const statuses: RelayStatus[] = [];
    const consumer = new RelayConsumer({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: async () => 'token',
      getLastEventId: () => null,
      applier: { one: async () => undefined },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: (s) => statuses.push(s),
      backoff: { minMs: 50, maxMs: 200 },
    });
    consumer.start();
    cleanups.push(() => consumer.stop());
    await waitFor(() => stream !== null, 'the stream open');
    const send = (frame: string) => (stream as ServerResponse).write(frame);
    send(heartbeatFrame('7', 0));
    send(heartbeatFrame('7', 12_000));
    await waitFor(() => statuses.some((s) => s.behind), 'the status behind');
    send(heartbeatFrame('7', 14_000)); // still behind, for longer: the reason says so
    send(heartbeatFrame('7', 0));
    await waitFor(() => statuses.at(-1)?.behind === null, 'caught up');
    const changes = statuses.map((s) => s.behind ?? null).filter((b, i, all) => b !== all[i - 1]);
    expect(changes).toEqual([
      null,
      'its store has not answered it for 12 s',
      'its store has not answered it for 14 s',
      null,
    ]);
  });
});
