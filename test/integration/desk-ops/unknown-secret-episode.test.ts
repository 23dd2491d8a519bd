/**
 * Deliveries with an unknown secret on a desk of two Redis nodes (#43): both nodes refuse
 * them (404) and count them, and the desk's chat hears of the episode once when it starts
 * and once when it ends (no refusal anywhere for the quiet period), not once per node. A
 * later episode is posted again, once; its end too when the node that started it is gone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startChatReceiver } from '../relay/chat-receiver.js';
import { post, tempDir, waitFor } from '../relay/helpers.js';
import { startShippedAclRedis } from '../relay/redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const QUIET_MS = 3_000; // every refusal of one episode comes well within it, even on a busy machine
const RELAY_PW = 'relay-user-password-0123';
const AUTH = { username: 'macrobell-relay', password: RELAY_PW };
const OPEN = /^:warning: Relay node node-[ab] refused a webhook with an unknown secret at /;
const CLOSE =
  /^:white_check_mark: No webhook with an unknown secret for 3000 ms \(relay node-[ab]\): that episode is over\.$/;

describe('unknown secrets on a Redis desk', () => {
  it('posts one open and one close per episode, whichever nodes refuse', async () => {
    // Under the shipped ACL line: the nodes may use only the commands it allows.
    const redis = await startShippedAclRedis(RELAY_PW);
    cleanups.push(() => redis.stop());
    const chat = await startChatReceiver();
    cleanups.push(() => chat.close());
    const nodes: RunningRelay[] = [];
    for (const name of ['node-a', 'node-b']) {
      const relay = await startRelay({
        dataDir: tempDir('mb-unknown-secret-'),
        secret: 'episode-secret',
        token: 'episode-token',
        nodeName: name,
        redis: { url: redis.url, auth: AUTH, durability: 'aof-always' },
        deskAlerts: { webhookUrl: chat.url, checkEveryMs: 0, unknownSecretQuietMs: QUIET_MS },
      });
      cleanups.push(() => relay.close());
      nodes.push(relay);
    }
    const refuse = async (relay: RunningRelay) => {
      const res = await post(`${relay.url}/hooks/a-retired-secret`, '{"type":"eventDate_updated"}');
      expect(res.status).toBe(404);
    };
    const metric = async (relay: RunningRelay) =>
      /^macrobell_relay_hooks_unknown_secret_total (\d+)$/m.exec(await relay.metrics())?.[1];

    // The service delivers to the retired URL through both nodes (a proxy spreads them).
    for (let i = 0; i < 3; i++) for (const n of nodes) await refuse(n);
    await waitFor(() => chat.texts.length === 2, 'the episode posted and over', 10_000);
    expect(chat.texts).toEqual([expect.stringMatching(OPEN), expect.stringMatching(CLOSE)]);
    for (const n of nodes) expect(await metric(n)).toBe('3');

    // A later episode, where node B refuses first: posted again, once.
    await refuse(nodes[1] as RunningRelay);
    await refuse(nodes[0] as RunningRelay);
    await waitFor(() => chat.texts.length === 4, 'the second episode posted and over', 10_000);
    expect(chat.texts.slice(2)).toEqual([
      expect.stringMatching(/^:warning: Relay node node-b refused/),
      expect.stringMatching(CLOSE),
    ]);

    // A third, started by node A, which then goes away: node B, which refused in it too,
    // posts its end (before, only the node that started an episode could end it).
    await refuse(nodes[0] as RunningRelay);
    await waitFor(() => chat.texts.length === 5, 'the third episode posted');
    await refuse(nodes[1] as RunningRelay);
    await (nodes[0] as RunningRelay).close();
    await waitFor(() => chat.texts.length === 6, 'the third episode over', 10_000);
    expect(chat.texts.slice(4)).toEqual([
      expect.stringMatching(/^:warning: Relay node node-a refused/),
      expect.stringMatching(/\(relay node-b\): that episode is over\.$/),
    ]);
  }, 60_000);
});
