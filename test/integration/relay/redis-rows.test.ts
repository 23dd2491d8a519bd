/**
 * What the relay keeps in Redis is read through schemas: the desk's users (one mapper over
 * each user's hash), its admins and the replay requests between nodes. What the relay
 * wrote reads back; a value another version or a hand edit wrote fails (or, for a replay
 * request, is skipped with one warning) naming where it is and the field, never the value.
 */
import Redis from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import {
  RedisReplaySignal,
  type ReplayRequest,
} from '../../../src/relay/desk-ops/replay/replay-signal.js';
import { PREFIX } from '../../../src/relay/redis/redis-scripts.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { waitFor } from '../../support/wait.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

describe('the desk users in Redis, read through one mapper', () => {
  it('lists what the scripts wrote, and names a hand-edited field', async () => {
    let now = 1_700_000_000_000;
    const store = await RedisUserStore.open(redis.url, () => now);
    const raw = new Redis(redis.url);
    try {
      await store.add('erin');
      now += 60_000;
      expect(await store.revoke('erin')).toBe(true);
      expect(await store.list()).toEqual([
        {
          name: 'erin',
          createdAt: 1_700_000_000_000,
          lastSeenAt: null,
          revokedAt: 1_700_000_060_000,
        },
      ]);

      await raw.hset(`${PREFIX}user:erin`, 'created_at', 'yesterday');
      await expect(store.list()).rejects.toThrow(
        `user "erin" in Redis (${PREFIX}user:erin): unexpected row (created_at: unix ms)`,
      );
    } finally {
      raw.disconnect();
      await store.close();
    }
  });
});

describe('the desk admins in Redis, read through a schema', () => {
  it('lists what add wrote, and names a hand-edited field', async () => {
    const store = await RedisAdminStore.open(redis.url, () => 1_700_000_000_000);
    const raw = new Redis(redis.url);
    try {
      await store.add('olga');
      expect(await store.list()).toEqual([
        { name: 'olga', createdAt: 1_700_000_000_000, revokedAt: null },
      ]);
      await raw.hset(
        `${PREFIX}admins`,
        'olga',
        JSON.stringify({ tokenHash: 'h', createdAt: 'today', revokedAt: null }),
      );
      await expect(store.list()).rejects.toThrow(
        'admin "olga" in Redis: a wrong or missing createdAt',
      );
      // the field, never the value (a row may hold a token hash)
      await expect(store.list()).rejects.not.toThrow(/today/);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });
});

describe('replay requests between nodes', () => {
  it('skips a malformed request with one warning and answers the next', async () => {
    const warnings: { msg: string; err?: { message: string } }[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => void warnings.push(JSON.parse(line)) },
    );
    const asking = await RedisReplaySignal.open(redis.url, { waitMs: 10_000 });
    const serving = await RedisReplaySignal.open(redis.url, { logger });
    const raw = new Redis(redis.url);
    try {
      const handled: ReplayRequest[] = [];
      serving.listen(
        () => 'node-b',
        (req) => {
          handled.push(req);
          return Promise.resolve(2);
        },
      );
      await raw.xadd(`${PREFIX}desk-replays`, '*', 'request', JSON.stringify({ id: 5 }));
      const good: ReplayRequest = {
        id: 'r-1',
        user: 'ana',
        after: '10',
        last: '20',
        origin: 'node-a',
      };
      const answers = await asking.broadcast(good, 1);
      expect(answers).toEqual({ answered: 1, expected: 1, desktops: 2 });
      expect(handled).toEqual([good]);
      await waitFor(() => warnings.length > 0, 'the warning');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.msg).toBe('replay requests: skipped a malformed request');
      expect(warnings[0]?.err?.message).toMatch(/^replay request \S+: a wrong or missing id, user/);
    } finally {
      raw.disconnect();
      await asking.close();
      await serving.close();
    }
  });
});
