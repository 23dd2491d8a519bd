/**
 * A store outage reaches the desk's chat once when it starts and once when it ends — once
 * for the desk, not once per node: two relays on a real redis-server that is killed and
 * started again, a loopback chat receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningRelay } from '../../../src/relay/server.js';
import { waitFor } from '../relay/helpers.js';
import type { TestRedis } from '../relay/redis-server.js';
import { startAlertingNodes } from './alerting-nodes.js';

let redis: TestRedis;
let relay: RunningRelay;
let relayB: RunningRelay;
let received: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const nodes = await startAlertingNodes(cleanups, { label: 'alert-store' });
  ({ redis, texts: received } = nodes);
  relay = await nodes.node('node-a');
  relayB = await nodes.node('node-b');
}, 60_000);
afterAll(async () => {
  // Latest first, as the setup started them: the nodes, then Redis, then the chat.
  for (const c of cleanups.splice(0).reverse()) await c();
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
