/**
 * The desk's admins in Redis are read through a schema: what `add` wrote lists back, and a
 * row someone edited by hand fails naming the admin and the field, never a token hash.
 */
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import { PREFIX } from '../../../src/relay/redis/redis-scripts.js';
import { startRedis, type TestRedis } from './redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

describe('desk admins in Redis, read through a schema', () => {
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
