/**
 * Whether a refusal starts an episode of unknown-secret refusals (unknown-secrets.ts): one
 * that comes after `quietMs` without any. One node: its memory. A Redis desk: one key every
 * node sets (SET NX PX: the one node that creates it starts the episode) or extends, so the
 * desk posts one episode however many nodes refuse its deliveries.
 */
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { PREFIX } from '../redis/redis-scripts.js';

export interface EpisodeGate {
  /** A refusal at `at`: true for the one caller (on the desk) whose refusal starts an episode. */
  refused(at: number): Promise<boolean>;
  /** How long until the episode is over if no refusal comes (0: over). */
  remainingMs(at: number): Promise<number>;
  close(): Promise<void>;
}

export class MemoryEpisodeGate implements EpisodeGate {
  private last = -Infinity;
  constructor(private readonly quietMs: number) {}

  refused(at: number): Promise<boolean> {
    const started = at - this.last >= this.quietMs;
    this.last = at;
    return Promise.resolve(started);
  }

  remainingMs(at: number): Promise<number> {
    return Promise.resolve(Math.max(0, this.last + this.quietMs - at));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const EPISODE = `${PREFIX}unknown-secret-episode`;
/**
 * KEYS: the episode. ARGV: when it ends unless refused again (unix ms), quietMs. 1 = this
 * refusal started it. Only SET and GET: the shipped ACL allows no PEXPIRE or PTTL.
 */
const REFUSED_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])
return 0`;
/** While the key stands its end is not passed, whatever this node's clock says. */
const RECHECK_MS = 100;
/**
 * A scanner's burst asks Redis at most once in this long per node: the key was extended
 * that recently, so the episode is still on.
 */
const TOUCH_EVERY_MS = 1_000;

type EpisodeRedis = Redis & { mbUnknownSecretRefused(...args: string[]): Promise<number> };

export class RedisEpisodeGate implements EpisodeGate {
  private lastTouch = -Infinity;
  /** Used while Redis cannot be asked: a post per node beats none. */
  private readonly fallback: MemoryEpisodeGate;

  private constructor(
    private readonly redis: EpisodeRedis,
    private readonly quietMs: number,
    private readonly logger?: Logger,
  ) {
    this.fallback = new MemoryEpisodeGate(quietMs);
  }

  static async open(
    target: string | RedisTarget,
    quietMs: number,
    logger?: Logger,
  ): Promise<RedisEpisodeGate> {
    const redis = await connectSharedRedis<EpisodeRedis>(target, "the desk's unknown secrets", {
      mbUnknownSecretRefused: { numberOfKeys: 1, lua: REFUSED_SCRIPT },
    });
    return new RedisEpisodeGate(redis, quietMs, logger);
  }

  async refused(at: number): Promise<boolean> {
    const local = await this.fallback.refused(at);
    if (at - this.lastTouch < TOUCH_EVERY_MS) return false;
    this.lastTouch = at;
    try {
      const ends = String(at + this.quietMs);
      const started = await this.redis.mbUnknownSecretRefused(EPISODE, ends, String(this.quietMs));
      return started === 1;
    } catch (err) {
      this.lastTouch = -Infinity;
      this.logger?.warn({ err }, 'unknown secrets: Redis cannot be asked; this node decides');
      return local;
    }
  }

  async remainingMs(at: number): Promise<number> {
    const ends = await this.redis.get(EPISODE).then(
      (v) => (v === null ? 0 : Number(v)),
      () => null,
    );
    // Redis away: this node's own refusals say.
    if (ends === null) return this.fallback.remainingMs(at);
    if (ends === 0) return 0;
    return Math.max(RECHECK_MS, ends - at);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
