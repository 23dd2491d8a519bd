/**
 * A store outage reaches the desk's chat once when it starts and once when it ends: a relay
 * on a real redis-server that is killed and started again, a loopback chat receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';

let redis: TestRedis;
let relay: RunningRelay;
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
  relay = await startRelay({
    dataDir: tempDir('mb-alert-store-'),
    secret: 'alert-store-secret',
    token: 'alert-store-legacy',
    nodeName: 'node-a',
    redis: { url: redis.url },
    deskAlerts: {
      webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      checkEveryMs: 0,
    },
  });
}, 60_000);
afterAll(async () => {
  await relay?.close();
  await redis?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('store outage alerts', () => {
  it('posts the outage once and its end once', async () => {
    await relay.checkDeskAlerts();
    expect(received).toEqual([]);
    await redis.kill('SIGKILL');
    await waitFor(() => !relay.log.health().ok, 'the relay to see Redis gone');
    await relay.checkDeskAlerts();
    await relay.checkDeskAlerts();
    expect(received).toEqual([
      expect.stringMatching(/^:rotating_light: Relay node-a: the store is down/),
    ]);
    await redis.restart();
    await waitFor(() => relay.log.health().ok, 'the relay to see Redis back');
    await waitFor(async () => {
      await relay.checkDeskAlerts();
      return received.length === 2;
    }, 'the recovery post');
    await relay.checkDeskAlerts();
    expect(received).toHaveLength(2);
    expect(received[1]).toBe(':white_check_mark: Relay node-a: the store is back.');
  }, 60_000);
});
