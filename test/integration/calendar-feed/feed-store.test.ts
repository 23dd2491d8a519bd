/**
 * The feed stores on their own: Redis (a real redis-server, two stores as two nodes with
 * one key file) and SQLite. What the routes rely on: one node's list and URL are the
 * other's, a rotation holds everywhere, two nodes issuing at once agree, the key and the
 * tokens are nowhere in Redis, and a node with another key refuses.
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FeedKeyMismatch,
  createFeedKey,
  keyFilePath,
  readFeedKey,
} from '../../../src/relay/calendar-feed/feed-key.js';
import {
  FEED_TOKENS,
  RedisFeedStore,
  watchlistKey,
} from '../../../src/relay/calendar-feed/redis-feed-store.js';
import { SqliteFeedStore } from '../../../src/relay/calendar-feed/sqlite-feed-store.js';
import { StoreUnavailable } from '../../../src/relay/log/event-log.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';

let redis: TestRedis;
const dirA = tempDir('mb-feedstore-a-');
const dirB = tempDir('mb-feedstore-b-');
let a: RedisFeedStore;
let b: RedisFeedStore;
const opened: RedisFeedStore[] = [];
const open = async (dir: string) => {
  const s = await RedisFeedStore.open(redis.url, dir);
  opened.push(s);
  return s;
};

beforeAll(async () => {
  redis = await startRedis({ durable: false });
  a = await open(dirA);
  b = await open(dirB);
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.stop();
});

const ID1 = '0b1c2d3e-0000-4000-8000-000000000001';
const ID2 = '0b1c2d3e-0000-4000-8000-000000000002';

describe('the Redis feed store, two nodes', () => {
  it('shares watch lists', async () => {
    expect(await b.watchlist('alice')).toEqual({ eventIds: [], updatedAt: 0 });
    const stored = await a.setWatchlist('alice', [ID1, ID2]);
    expect(await b.watchlist('alice')).toEqual(stored);
    await expect(a.setWatchlist('bad name!', [])).rejects.toThrow(/not a desk user name/);
  });

  it('makes the key on first use, and a node with a copy derives the same URL', async () => {
    await a.checkKey(); // a check alone makes no key
    expect(existsSync(keyFilePath(dirA))).toBe(false);
    const first = await a.feedToken('alice', 100);
    expect(first.token).toMatch(/^mbf_[\w-]{43}$/);
    copyFileSync(keyFilePath(dirA), keyFilePath(dirB));
    expect(await b.feedToken('alice', 100)).toEqual(first);
    expect(await b.ownerOf(first.token)).toEqual({ user: 'alice', userCreatedAt: 100 });
    const wrong = `${first.token.slice(0, -1)}${first.token.endsWith('A') ? 'B' : 'A'}`;
    expect(await a.ownerOf(wrong)).toBeNull();
  });

  it('rotates on one node for all, keeping one index entry per user', async () => {
    const old = await a.feedToken('alice', 100);
    const rotated = await b.feedToken('alice', 100, true);
    expect(rotated.token).not.toBe(old.token);
    for (const s of [a, b]) {
      expect(await s.ownerOf(old.token)).toBeNull();
      expect((await s.ownerOf(rotated.token))?.user).toBe('alice');
    }
    expect((await a.feedToken('alice', 100)).token).toBe(rotated.token);
    // A user added again (new created_at) gets a new URL.
    const readded = await a.feedToken('alice', 200);
    expect(readded.token).not.toBe(rotated.token);
    expect(await b.ownerOf(rotated.token)).toBeNull();
    const client = new Redis(redis.url);
    expect(Object.values(await client.hgetall(FEED_TOKENS)).filter((u) => u === 'alice')).toEqual([
      'alice',
    ]);
    client.disconnect();
  });

  it('gives two nodes issuing a new user’s token at once the same one', async () => {
    const [x, y] = await Promise.all([a.feedToken('bob', 1), b.feedToken('bob', 1)]);
    expect(x.token).toBe(y.token);
    expect((await a.ownerOf(x.token))?.user).toBe('bob');
  });

  it('says a damaged watch list is damaged rather than serving it', async () => {
    await a.setWatchlist('carol', [ID1]);
    const client = new Redis(redis.url);
    await client.hset(watchlistKey('carol'), 'event_ids', '{"not":"a list"}');
    client.disconnect();
    await expect(b.watchlist('carol')).rejects.toThrow(
      'calendar feed: the watch list of carol is damaged',
    );
  });

  it('keeps neither the key nor any token in Redis', async () => {
    const key = (readFeedKey(dirA) as Buffer).toString('base64url');
    const tokens = [(await a.feedToken('alice', 200)).token, (await a.feedToken('bob', 1)).token];
    const client = new Redis(redis.url);
    for (const k of await client.keys('macrobell:*')) {
      const type = await client.type(k);
      const value =
        type === 'hash' ? JSON.stringify(await client.hgetall(k)) : ((await client.get(k)) ?? '');
      expect(value, k).not.toContain(key);
      for (const t of tokens) expect(value, k).not.toContain(t.slice(4));
    }
    client.disconnect();
  });

  it('refuses feeds on a node with another key file or none', async () => {
    const other = tempDir('mb-feedstore-c-');
    createFeedKey(other);
    const c = await open(other);
    await expect(c.checkKey()).rejects.toThrow(FeedKeyMismatch);
    await expect(c.feedToken('alice', 200)).rejects.toThrow(FeedKeyMismatch);
    const none = tempDir('mb-feedstore-d-');
    const d = await open(none);
    await expect(d.feedToken('carol', 1)).rejects.toThrow(FeedKeyMismatch);
    expect(existsSync(keyFilePath(none))).toBe(false);
    // Copying the desk's key in fixes the node without a restart.
    copyFileSync(keyFilePath(dirA), keyFilePath(none));
    expect((await d.feedToken('alice', 200)).token).toBe((await a.feedToken('alice', 200)).token);
  });

  it('fails with StoreUnavailable while Redis is away, and works once it is back', async () => {
    await redis.kill();
    await expect(a.watchlist('alice')).rejects.toThrow(StoreUnavailable);
    await expect(b.ownerOf('mbf_x')).rejects.toThrow(StoreUnavailable);
    await redis.restart();
    // Not durable (no AOF): the data went with the process; the store still answers.
    const back = await waitFor(() => a.watchlist('alice').catch(() => null), 'Redis again');
    expect(back).toEqual({ eventIds: [], updatedAt: 0 });
  }, 40_000);
});

describe('the SQLite feed store', () => {
  it('issues new URLs when the key file was replaced (the old ones no longer match)', async () => {
    const dir = tempDir('mb-feedstore-sqlite-');
    const store = SqliteFeedStore.open(dir);
    const first = await store.feedToken('alice', 1);
    expect((await store.feedToken('alice', 1)).token).toBe(first.token);
    await store.close();
    rmSync(keyFilePath(dir));
    const reopened = SqliteFeedStore.open(dir);
    const next = await reopened.feedToken('alice', 1);
    expect(next.token).not.toBe(first.token);
    expect((await reopened.ownerOf(next.token))?.user).toBe('alice');
    expect(await reopened.ownerOf(first.token)).toBeNull();
    await reopened.close();
  });
});
