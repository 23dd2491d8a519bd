/**
 * Whether a refusal starts an episode of unknown-secret refusals (unknown-secrets.ts): one
 * that comes after `quietMs` without any. One node: its memory. A Redis desk: one key every
 * node sets or extends (the one node that creates it starts the episode), so the desk posts
 * one episode however many nodes refuse its deliveries. The key also names the episode (its
 * start), so its end is posted once by whichever node that saw it claims the end first —
 * not only by the node that started it, which may be gone by then.
 */
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { PREFIX } from '../redis/redis-scripts.js';

/** What one refusal tells a node: whether it started the episode, and which episode. */
export interface Refusal {
  started: boolean;
  /** The episode's name on the desk (when it started, unix ms). */
  episode: string;
}

export interface EpisodeGate {
  /** A refusal at `at`: `started` for the one caller (on the desk) whose refusal starts it. */
  refused(at: number): Promise<Refusal>;
  /** How long until `episode` is over if no refusal comes (0: over). */
  remainingMs(at: number, episode: string): Promise<number>;
  /** True for the one caller on the desk that is to post the end of `episode`. */
  claimEnd(episode: string): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryEpisodeGate implements EpisodeGate {
  private last = -Infinity;
  private episode = '';
  constructor(private readonly quietMs: number) {}

  refused(at: number): Promise<Refusal> {
    const started = at - this.last >= this.quietMs;
    if (started) this.episode = String(at);
    this.last = at;
    return Promise.resolve({ started, episode: this.episode });
  }

  remainingMs(at: number, episode: string): Promise<number> {
    if (episode !== this.episode) return Promise.resolve(0);
    return Promise.resolve(Math.max(0, this.last + this.quietMs - at));
  }

  claimEnd(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /** The episode this node's own refusals are in. */
  current(): string {
    return this.episode;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const EPISODE = `${PREFIX}unknown-secret-episode`;
/** One key per ended episode, kept a day: the node that sets it posts the end. */
const ENDED = `${PREFIX}unknown-secret-episode-ended:`;
const ENDED_KEPT_MS = 86_400_000;
/**
 * KEYS: the episode. ARGV: when it ends unless refused again (unix ms), quietMs, this
 * refusal's time (unix ms). The key holds `start|ends`. Answers {1 if this refusal started
 * it, the episode's start}. Only GET and SET: the shipped ACL allows no PEXPIRE or PTTL.
 */
const REFUSED_SCRIPT = `
local current = redis.call('GET', KEYS[1])
local start = current and string.match(current, '^([^|]*)|')
local started = 0
if not start then
  start = ARGV[3]
  started = 1
end
redis.call('SET', KEYS[1], start .. '|' .. ARGV[1], 'PX', ARGV[2])
return {started, start}`;
/** While the key stands its end is not passed, whatever this node's clock says. */
const RECHECK_MS = 100;
/**
 * A scanner's burst asks Redis at most once in this long per node: the key was extended
 * that recently, so the episode is still on.
 */
const TOUCH_EVERY_MS = 1_000;

type EpisodeRedis = Redis & {
  mbUnknownSecretRefused(...args: string[]): Promise<[number, string]>;
};

/** The episode's start and end in the key's value (`start|ends`), or null. */
function parseEpisode(value: string | null): { start: string; ends: number } | null {
  const m = value === null ? null : /^([^|]+)\|(\d+)$/.exec(value);
  return m ? { start: m[1] as string, ends: Number(m[2]) } : null;
}

export class RedisEpisodeGate implements EpisodeGate {
  private lastTouch = -Infinity;
  /** The episode Redis named last (a burst's other refusals belong to it). */
  private episode = '';
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

  async refused(at: number): Promise<Refusal> {
    const local = await this.fallback.refused(at);
    if (at - this.lastTouch < TOUCH_EVERY_MS && this.episode)
      return { started: false, episode: this.episode };
    this.lastTouch = at;
    try {
      const ends = String(at + this.quietMs);
      const [started, episode] = await this.redis.mbUnknownSecretRefused(
        EPISODE,
        ends,
        String(this.quietMs),
        String(at),
      );
      this.episode = episode;
      return { started: started === 1, episode };
    } catch (err) {
      this.lastTouch = -Infinity;
      this.logger?.warn({ err }, 'unknown secrets: Redis cannot be asked; this node decides');
      return { started: local.started, episode: `local-${local.episode}` };
    }
  }

  async remainingMs(at: number, episode: string): Promise<number> {
    if (episode.startsWith('local-'))
      return this.fallback.remainingMs(at, episode.slice('local-'.length));
    const value = await this.redis.get(EPISODE).then(
      (v) => ({ v }),
      () => null,
    );
    // Redis away: this node's own refusals say.
    if (value === null) return this.fallback.remainingMs(at, this.fallback.current());
    const current = parseEpisode(value.v);
    // Gone, or another episode since: this one is over.
    if (!current || current.start !== episode) return 0;
    return Math.max(RECHECK_MS, current.ends - at);
  }

  async claimEnd(episode: string): Promise<boolean> {
    if (episode.startsWith('local-')) return true;
    try {
      return (await this.redis.set(`${ENDED}${episode}`, '1', 'PX', ENDED_KEPT_MS, 'NX')) === 'OK';
    } catch (err) {
      // A post per node beats none.
      this.logger?.warn({ err }, 'unknown secrets: Redis cannot be asked; this node posts the end');
      return true;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
