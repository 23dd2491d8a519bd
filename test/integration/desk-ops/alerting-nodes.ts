/**
 * Relay nodes for the desk-alert tests: one real Redis, one loopback chat receiver, and
 * nodes that post to it and check only when the test calls `checkDeskAlerts` (so a test
 * decides when, and how often, a check runs).
 */
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startChatReceiver } from '../relay/chat-receiver.js';
import { tempDir } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';

export interface AlertingNodes {
  redis: TestRedis;
  /** Every chat post's text, in order. */
  texts: string[];
  /** Starts a node named `name` on the desk's Redis, or on `redisUrl` (a proxy to it). */
  node(name: string, redisUrl?: string): Promise<RunningRelay>;
}

/**
 * Starts the chat and Redis; each (and each node) is pushed to `cleanups` as it starts, so
 * the caller's teardown closes them latest first, whatever part of the setup ran.
 */
export async function startAlertingNodes(
  cleanups: (() => Promise<unknown>)[],
  opts: {
    /** Names the nodes' data folders and secrets. */
    label: string;
    /** The nodes' clock (default the wall clock): one shared manual clock makes silences. */
    now?: () => number;
  },
): Promise<AlertingNodes> {
  const chat = await startChatReceiver();
  cleanups.push(() => chat.close());
  const redis = await startRedis();
  cleanups.push(() => redis.stop());
  return {
    redis,
    texts: chat.texts,
    async node(name, redisUrl = redis.url) {
      const relay = await startRelay({
        dataDir: tempDir(`mb-${opts.label}-`),
        secret: `${opts.label}-secret`,
        token: `${opts.label}-token`,
        nodeName: name,
        now: opts.now,
        redis: { url: redisUrl },
        deskAlerts: { webhookUrl: chat.url, checkEveryMs: 0 },
      });
      cleanups.push(() => relay.close());
      return relay;
    },
  };
}
