/**
 * Caps that hold across the desk, not per node: places (a trader's open streams, page
 * reads in flight) and token buckets (a trader's reads of the service per second). One
 * node keeps them in memory; on Redis every node shares them, so adding nodes does not
 * multiply what one trader may hold.
 *
 * In Redis a place is a field of one hash per trader and kind (`limit:KIND:USER`), valued
 * with its expiry: the node holding it renews it while the stream is open, so the places
 * of a node that died free themselves within a minute. A bucket is a hash of its tokens
 * and the time they were counted. Only commands of the relay's ACL (HGETALL, HSET, HDEL,
 * HGET, HEXISTS, EXPIRE inside scripts).
 */
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { PREFIX } from '../redis/redis-scripts.js';

export interface Lease {
  /** Gives the place back (idempotent). */
  release(): void;
}

export interface DeskLimits {
  readonly backend: 'memory' | 'redis';
  /** A place among `user`'s `kind` when fewer than `cap` are held desk-wide; null at the cap. */
  acquire(kind: string, user: string, cap: number): Promise<Lease | null>;
  /**
   * `cost` tokens (default one) from `user`'s bucket of `kind`: 0 when allowed, else the
   * milliseconds to wait. Whatever the cost, a read is allowed only while a whole token is
   * left, so a cheap read and a full one get the same answer from an empty bucket.
   */
  take(
    kind: string,
    user: string,
    perSecond: number,
    burst: number,
    cost?: number,
  ): Promise<number>;
  close(): Promise<void>;
}

/** How long a place outlives its node's last renewal (its node died, say). */
export const LEASE_TTL_MS = 60_000;

/** Token buckets on this node (one node, or a fallback): refilled continuously. */
class Buckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly now: () => number) {}

  take(key: string, perSecond: number, burst: number, cost = 1): number {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + (Math.max(0, t - b.at) * perSecond) / 1000);
    b.at = t;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= cost;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - b.tokens) * 1000) / perSecond));
  }
}

export class MemoryDeskLimits implements DeskLimits {
  readonly backend = 'memory';
  private readonly held = new Map<string, Set<symbol>>();
  private readonly buckets: Buckets;

  constructor(now: () => number = Date.now) {
    this.buckets = new Buckets(now);
  }

  acquire(kind: string, user: string, cap: number): Promise<Lease | null> {
    const key = `${kind}:${user}`;
    const set = this.held.get(key) ?? new Set();
    if (set.size >= cap) return Promise.resolve(null);
    const place = Symbol(key);
    set.add(place);
    this.held.set(key, set);
    return Promise.resolve({
      release: () => {
        set.delete(place);
        if (set.size === 0 && this.held.get(key) === set) this.held.delete(key);
      },
    });
  }

  take(kind: string, user: string, perSecond: number, burst: number, cost = 1): Promise<number> {
    return Promise.resolve(this.buckets.take(`${kind}:${user}`, perSecond, burst, cost));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** KEYS: the places hash. ARGV: place, now, ttl ms, cap. 1 = taken, 0 = at the cap. */
const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
local live = 0
for i = 1, #all, 2 do
  if tonumber(all[i + 1]) <= now then redis.call('HDEL', KEYS[1], all[i]) else live = live + 1 end
end
if live >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], tostring(now + tonumber(ARGV[3])))
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3]) / 1000) + 1)
return 1`;

/** KEYS: the places hash. ARGV: place, expiry. Renews a place still held (not a released one). */
const RENEW_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], math.ceil((tonumber(ARGV[2]) - tonumber(ARGV[3])) / 1000) + 1)
return 1`;

/** KEYS: the bucket hash. ARGV: now, tokens per second, burst, cost. The ms to wait (0 = taken). */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tokens = tonumber(redis.call('HGET', KEYS[1], 't')) or burst
local at = tonumber(redis.call('HGET', KEYS[1], 'a')) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - tonumber(ARGV[4]) else wait = math.max(1, math.ceil((1 - tokens) * 1000 / rate)) end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(math.max(now, at)))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 60)
return wait`;

type LimitsRedis = Redis & {
  mbLimitAcquire(
    key: string,
    place: string,
    now: string,
    ttl: string,
    cap: string,
  ): Promise<number>;
  mbLimitRenew(key: string, place: string, expiry: string, now: string): Promise<number>;
  mbLimitTake(key: string, now: string, rate: string, burst: string, cost: string): Promise<number>;
};

const placesKey = (kind: string, user: string) => `${PREFIX}limit:${kind}:${user}`;
const bucketKey = (kind: string, user: string) => `${PREFIX}bucket:${kind}:${user}`;

export class RedisDeskLimits implements DeskLimits {
  readonly backend = 'redis';
  /** The places this node holds: key → place ids, renewed on a timer. */
  private readonly held = new Map<string, Set<string>>();
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly redis: LimitsRedis,
    private readonly now: () => number,
    private readonly logger?: Logger,
  ) {
    this.timer = setInterval(() => void this.renew(), LEASE_TTL_MS / 3);
    this.timer.unref();
  }

  static async open(
    target: string | RedisTarget,
    now: () => number = Date.now,
    logger?: Logger,
  ): Promise<RedisDeskLimits> {
    const redis = await connectSharedRedis<LimitsRedis>(target, "the desk's limits", {
      mbLimitAcquire: { numberOfKeys: 1, lua: ACQUIRE_SCRIPT },
      mbLimitRenew: { numberOfKeys: 1, lua: RENEW_SCRIPT },
      mbLimitTake: { numberOfKeys: 1, lua: TAKE_SCRIPT },
    });
    return new RedisDeskLimits(redis, now, logger);
  }

  async acquire(kind: string, user: string, cap: number): Promise<Lease | null> {
    const key = placesKey(kind, user);
    const place = randomBytes(9).toString('base64url');
    const now = String(this.now());
    const taken = await this.redis.mbLimitAcquire(
      key,
      place,
      now,
      String(LEASE_TTL_MS),
      String(cap),
    );
    if (taken !== 1) return null;
    const set = this.held.get(key) ?? new Set();
    set.add(place);
    this.held.set(key, set);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        set.delete(place);
        if (set.size === 0 && this.held.get(key) === set) this.held.delete(key);
        // Redis away: the place frees itself when its expiry passes.
        this.redis.hdel(key, place).catch(() => undefined);
      },
    };
  }

  take(kind: string, user: string, perSecond: number, burst: number, cost = 1): Promise<number> {
    const key = bucketKey(kind, user);
    const now = String(this.now());
    return this.redis.mbLimitTake(key, now, String(perSecond), String(burst), String(cost));
  }

  private async renew(): Promise<void> {
    const now = this.now();
    const expiry = String(now + LEASE_TTL_MS);
    try {
      for (const [key, places] of this.held)
        for (const place of places) await this.redis.mbLimitRenew(key, place, expiry, String(now));
    } catch (err) {
      this.logger?.warn({ err }, 'could not renew stream places (Redis away); retrying');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export function openDeskLimits(
  redis: RedisTarget | undefined,
  now: () => number,
  logger?: Logger,
): Promise<DeskLimits> {
  return redis
    ? RedisDeskLimits.open(redis, now, logger)
    : Promise.resolve(new MemoryDeskLimits(now));
}
