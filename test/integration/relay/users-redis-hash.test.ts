/**
 * The desk's users in Redis are read through one mapper: what the add/revoke scripts wrote
 * reads back as numbers, and a hash someone edited by hand fails `users list` naming the
 * user's key and the field, not as a NaN date far away.
 */
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFIX } from '../../../src/relay/redis/redis-scripts.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

describe('desk users in Redis, read through one mapper', () => {
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
