/**
 * The desk's traders in Redis, shared by every relay node of a desk: a user added or
 * revoked with `relay users … --redis` (or on any node) holds on all of them at once.
 * Keys (one hash slot, beside the event stream): a hash per user (token hash, times),
 * the set of names, the set of revoked names, and token hash → name for active users
 * only, so a lookup is one HGET and a revoked token is simply not there. Add and revoke
 * are Lua scripts, so two admins at once cannot leave the keys half-written.
 */
import type Redis from 'ioredis';
import { z } from 'zod';
import { rowMapper } from '../../node/sqlite/rows.js';
import { tokenHash } from '../../node/security/compare.js';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { PREFIX } from '../redis/redis-scripts.js';
import {
  SEEN_EVERY_MS,
  checkedUserName,
  newUserToken,
  userExistsMessage,
  type UserInfo,
  type UserStore,
} from './user-store.js';

const NAMES = `${PREFIX}users`;
const REVOKED = `${PREFIX}users-revoked`;
const TOKENS = `${PREFIX}user-tokens`;
const userKey = (name: string) => `${PREFIX}user:${name}`;

/** KEYS: user, names, revoked, tokens. ARGV: name, token hash, now. 0 = an active user exists. */
const ADD_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'token_hash') == 1 and redis.call('HEXISTS', KEYS[1], 'revoked_at') == 0 then return 0 end
local old = redis.call('HGET', KEYS[1], 'token_hash')
if old then redis.call('HDEL', KEYS[4], old) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'token_hash', ARGV[2], 'created_at', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
return 1`;

/** KEYS: user, revoked, tokens. ARGV: name, now. 0 = no active user by that name. */
const REVOKE_SCRIPT = `
local hash = redis.call('HGET', KEYS[1], 'token_hash')
if not hash or redis.call('HEXISTS', KEYS[1], 'revoked_at') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'revoked_at', ARGV[2])
redis.call('HDEL', KEYS[3], hash)
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

type UsersRedis = Redis & {
  mbUserAdd(...args: string[]): Promise<number>;
  mbUserRevoke(...args: string[]): Promise<number>;
};

/** Unix ms as the scripts write them (`String(now)`); a field absent is null. */
const millis = z
  .string()
  .regex(/^\d+$/, 'unix ms')
  .transform((v) => Number(v));

/** A user's hash, the one way it is read: the scripts above are its only writers. */
const userHash = z.object({
  token_hash: z.string(),
  created_at: millis,
  last_seen_at: millis.optional(),
  revoked_at: millis.optional(),
});

function userInfo(name: string, hash: Record<string, string>): UserInfo {
  const r = rowMapper(`user "${name}" in Redis (${userKey(name)})`, userHash.shape)(hash);
  return {
    name,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at ?? null,
    revokedAt: r.revoked_at ?? null,
  };
}

export class RedisUserStore implements UserStore {
  readonly backend = 'redis';
  private readonly seen = new Map<string, number>();

  private constructor(
    private readonly redis: UsersRedis,
    private readonly now: () => number,
  ) {}

  /** Connects (and fails with a plain message when Redis cannot be reached). */
  static async open(
    target: string | RedisTarget,
    now: () => number = Date.now,
  ): Promise<RedisUserStore> {
    const redis = await connectSharedRedis<UsersRedis>(target, "the desk's users", {
      mbUserAdd: { numberOfKeys: 4, lua: ADD_SCRIPT },
      mbUserRevoke: { numberOfKeys: 3, lua: REVOKE_SCRIPT },
    });
    return new RedisUserStore(redis, now);
  }

  async add(name: string): Promise<{ name: string; token: string }> {
    const checked = checkedUserName(name);
    const token = newUserToken();
    const added = await this.redis.mbUserAdd(
      userKey(checked),
      NAMES,
      REVOKED,
      TOKENS,
      checked,
      tokenHash(token),
      String(this.now()),
    );
    if (added !== 1) throw new Error(userExistsMessage(checked));
    return { name: checked, token };
  }

  async list(): Promise<UserInfo[]> {
    const names = (await this.redis.smembers(NAMES)).sort();
    const rows = await Promise.all(names.map((n) => this.redis.hgetall(userKey(n))));
    return names.map((name, i) => userInfo(name, rows[i] ?? {}));
  }

  async revoke(name: string): Promise<boolean> {
    const done = await this.redis.mbUserRevoke(
      userKey(name),
      REVOKED,
      TOKENS,
      name,
      String(this.now()),
    );
    return done === 1;
  }

  /** One HGET by the token's hash (the hash reveals nothing about the token). */
  async authenticate(token: string): Promise<string | null> {
    const name = await this.redis.hget(TOKENS, tokenHash(token));
    if (name === null) return null;
    const t = this.now();
    if (t - (this.seen.get(name) ?? 0) >= SEEN_EVERY_MS) {
      this.seen.set(name, t);
      // Best effort: a failed write only leaves last-seen older.
      void this.redis.hset(userKey(name), 'last_seen_at', String(t)).catch(() => undefined);
    }
    return name;
  }

  async revokedNames(): Promise<Set<string>> {
    return new Set(await this.redis.smembers(REVOKED));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
