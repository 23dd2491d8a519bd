/**
 * The feed store in Redis, shared by every relay node of a desk: a watch list uploaded to
 * one node and a feed URL made on one are served by all. Keys (the relay's hash slot): a
 * hash per user for the watch list and one for the feed token (nonce, token hash, times),
 * token hash → user for live tokens, and the key's fingerprint (shared-feed-key.ts).
 * Issuing a token is one Lua script, so the index and the user's nonce change together.
 */
import type Redis from 'ioredis';
import { tokenHash } from '../../node/security/compare.js';
import { StoreUnavailable } from '../log/event-log.js';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { PREFIX } from '../redis/redis-scripts.js';
import {
  checkedFeedUser,
  liveToken,
  newToken,
  storedEventIds,
  type FeedOwner,
  type FeedStore,
  type FeedToken,
  type TokenRow,
  type Watchlist,
} from './feed-store.js';
import { sharedFeedKey, type FingerprintRegistry } from './shared-feed-key.js';

export const FEED_TOKENS = `${PREFIX}feed-tokens`;
export const FEED_KEY_CHECK = `${PREFIX}feed-key-check`;
export const watchlistKey = (user: string) => `${PREFIX}feed-watchlist:${user}`;
export const feedTokenKey = (user: string) => `${PREFIX}feed-token:${user}`;

/**
 * KEYS: user's token, token index. ARGV: user, the token hash the caller read ('' = none),
 * nonce, token hash, created_at, user_created_at ('' = none). 0 = another node changed it.
 */
const ISSUE_SCRIPT = `
local cur = redis.call('HGET', KEYS[1], 'token_hash')
if (cur or '') ~= ARGV[2] then return 0 end
if cur then redis.call('HDEL', KEYS[2], cur) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'nonce', ARGV[3], 'token_hash', ARGV[4], 'created_at', ARGV[5])
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'user_created_at', ARGV[6]) end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[1])
return 1`;

/** KEYS: fingerprint. ARGV: fingerprint. The one registered (set only if none was). */
const CLAIM_SCRIPT = `
local cur = redis.call('GET', KEYS[1])
if cur then return cur end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]`;

type FeedRedis = Redis & {
  mbFeedIssue(...args: string[]): Promise<number>;
  mbFeedKeyClaim(key: string, fingerprint: string): Promise<string>;
};

const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

/**
 * Redis errors become StoreUnavailable (the route answers 503), message only: the error
 * object can carry the command's arguments (a nonce, a token hash).
 */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new StoreUnavailable(`Redis: ${(err as Error).message}`);
  }
}

export class RedisFeedStore implements FeedStore {
  readonly backend = 'redis';
  private key: Buffer | null = null;
  private keyCheck: Promise<Buffer | null> | null = null;
  private readonly registry: FingerprintRegistry;

  private constructor(
    private readonly redis: FeedRedis,
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {
    this.registry = {
      get: () => guarded(() => redis.get(FEED_KEY_CHECK)),
      claim: (fp) => guarded(() => redis.mbFeedKeyClaim(FEED_KEY_CHECK, fp)),
    };
  }

  /** Connects (and fails with a plain message when Redis cannot be reached). */
  static async open(
    target: string | RedisTarget,
    dataDir: string,
    now = Date.now,
  ): Promise<RedisFeedStore> {
    const redis = await connectSharedRedis<FeedRedis>(target, 'the calendar feeds', {
      mbFeedIssue: { numberOfKeys: 2, lua: ISSUE_SCRIPT },
      mbFeedKeyClaim: { numberOfKeys: 1, lua: CLAIM_SCRIPT },
    });
    return new RedisFeedStore(redis, dataDir, now);
  }

  async setWatchlist(user: string, eventIds: readonly string[]): Promise<Watchlist> {
    const updatedAt = this.now();
    const ids = JSON.stringify(eventIds);
    // One HSET: the list and its time never disagree.
    await guarded(() =>
      this.redis.hset(watchlistKey(checkedFeedUser(user)), {
        event_ids: ids,
        updated_at: String(updatedAt),
      }),
    );
    return { eventIds: [...eventIds], updatedAt };
  }

  async watchlist(user: string): Promise<Watchlist> {
    const row = await guarded(() => this.redis.hgetall(watchlistKey(checkedFeedUser(user))));
    if (row.event_ids === undefined) return { eventIds: [], updatedAt: 0 };
    return { eventIds: storedEventIds(row.event_ids, user), updatedAt: Number(row.updated_at) };
  }

  async checkKey(): Promise<void> {
    await this.sharedKey(false);
  }

  async feedToken(user: string, userCreatedAt: number | null, rotate = false): Promise<FeedToken> {
    const key = (await this.sharedKey(true)) as Buffer;
    const name = checkedFeedUser(user);
    // Compare-and-set: if another node issued this user's token between our read and write,
    // read again and take theirs (a rotation both asked for is then done once, not twice).
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = await this.tokenRow(name);
      const live = liveToken(key, name, row, userCreatedAt, rotate && attempt === 0);
      if (live && row) return { token: live, createdAt: row.createdAt };
      const made = newToken(key, name, userCreatedAt, this.now());
      const done = await guarded(() =>
        this.redis.mbFeedIssue(
          feedTokenKey(name),
          FEED_TOKENS,
          name,
          row?.tokenHash ?? '',
          made.row.nonce,
          made.row.tokenHash,
          String(made.row.createdAt),
          made.row.userCreatedAt === null ? '' : String(made.row.userCreatedAt),
        ),
      );
      if (done === 1) return { token: made.token, createdAt: made.row.createdAt };
    }
    throw new StoreUnavailable('the feed token kept changing underneath; try again');
  }

  async ownerOf(token: string): Promise<FeedOwner | null> {
    const hash = tokenHash(token);
    const user = await guarded(() => this.redis.hget(FEED_TOKENS, hash));
    if (user === null) return null;
    const row = await this.tokenRow(user);
    // The index and the user's hash change together; checking both costs nothing.
    return row?.tokenHash === hash ? { user, userCreatedAt: row.userCreatedAt } : null;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** The key once checked against the desk's fingerprint; one check at a time. */
  private async sharedKey(create: boolean): Promise<Buffer | null> {
    if (this.key) return this.key;
    while (this.keyCheck) await this.keyCheck.catch(() => undefined);
    if (this.key) return this.key;
    this.keyCheck = sharedFeedKey(this.dataDir, this.registry, create);
    try {
      const key = await this.keyCheck;
      // Kept once it matched; a mismatch or outage is checked again on the next request,
      // so copying the right file in fixes a node without a restart.
      this.key = key;
      return key;
    } finally {
      this.keyCheck = null;
    }
  }

  private async tokenRow(user: string): Promise<TokenRow | null> {
    const r = await guarded(() => this.redis.hgetall(feedTokenKey(user)));
    if (r.nonce === undefined || r.token_hash === undefined) return null;
    return {
      nonce: r.nonce,
      tokenHash: r.token_hash,
      createdAt: Number(r.created_at ?? 0),
      userCreatedAt: num(r.user_created_at),
    };
  }
}
