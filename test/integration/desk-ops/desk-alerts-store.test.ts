/**
 * A store outage reaches the desk's chat once when it starts and once when it ends — once
 * for the desk, not once per node: two relays on a real redis-server that is killed and
 * started again, a loopback chat receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';

let redis: TestRedis;
let relay: RunningRelay;
let relayB: RunningRelay;
let receiver: Server;
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push((JSON.parse(body) as { text: string }).text);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  redis = await startRedis();
  const node = (nodeName: string) =>
    startRelay({
      dataDir: tempDir('mb-alert-store-'),
      secret: 'alert-store-secret',
      token: 'alert-store-legacy',
      nodeName,
      redis: { url: redis.url },
      deskAlerts: {
        webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        checkEveryMs: 0,
      },
    });
  relay = await node('node-a');
  relayB = await node('node-b');
}, 60_000);
afterAll(async () => {
  await relayB?.close();
  await relay?.close();
  await redis?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('store outage alerts', () => {
  it('posts the outage once and its end once, for the desk', async () => {
    const both = async () => {
      await relay.checkDeskAlerts();
      await relayB.checkDeskAlerts();
    };
    await both();
    expect(received).toEqual([]);
    await redis.kill('SIGKILL');
    await waitFor(
      () => !relay.log.health().ok && !relayB.log.health().ok,
      'the relays to see Redis gone',
    );
    await both();
    await both();
    expect(received).toEqual([
      expect.stringMatching(
        /^:rotating_light: The desk's Redis store is down, seen by relay node-a/,
      ),
    ]);
    await redis.restart();
    await waitFor(
      () => relay.log.health().ok && relayB.log.health().ok,
      'the relays to see Redis back',
    );
    await waitFor(async () => {
      await both();
      return received.length === 2;
    }, 'the recovery post');
    await both();
    expect(received).toHaveLength(2);
    expect(received[1]).toBe(":white_check_mark: The desk's Redis store is back (relay node-a).");
  }, 60_000);
});
