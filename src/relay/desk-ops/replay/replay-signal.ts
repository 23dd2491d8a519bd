/**
 * How a replay asked of one node reaches the trader's desktops on every node. One node
 * (SQLite): nothing to signal. Redis: the request goes on a small control stream
 * (`desk-replays`, XADD / XREAD BLOCK, within the relay's key prefix and ACL — no pub/sub),
 * every other node replays it to its own streams and answers in a short-lived hash
 * (`desk-replay:ID`, node → desktops reached), which the asking node reads back.
 */
import { blockingCommandTimeout, type RedisTarget } from '../../redis/redis-client.js';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { connectSharedRedis } from '../../redis/redis-connect.js';
import { PREFIX } from '../../redis/redis-scripts.js';
import { z } from 'zod';
import { parseCheckedJson } from '../../../node/json/checked-json.js';

/** How long one XREAD of the request stream waits. */
const BLOCK_MS = 2000;

const replayRequest = z.object({
  id: z.string(),
  user: z.string(),
  /** Replay the events after this id… */
  after: z.string(),
  /** …up to and including this one. */
  last: z.string(),
  /** The node that was asked (it replays to its own streams itself). */
  origin: z.string(),
});
export type ReplayRequest = z.infer<typeof replayRequest>;

export interface ReplayAnswers {
  /** Other nodes that answered, and how many were expected (live nodes but this one). */
  answered: number;
  expected: number;
  /** Desktops reached on those nodes. */
  desktops: number;
}

export interface ReplaySignal {
  /** Asks the other nodes; resolves with their answers (at most after `waitMs`). */
  broadcast(req: ReplayRequest, expected: number): Promise<ReplayAnswers>;
  /** Starts serving other nodes' requests: `handle` replays one, resolving with desktops reached. */
  listen(node: () => string, handle: (req: ReplayRequest) => Promise<number>): void;
  close(): Promise<void>;
}

/** One node: there is nobody else to ask. */
export class LocalReplaySignal implements ReplaySignal {
  broadcast(): Promise<ReplayAnswers> {
    return Promise.resolve({ answered: 0, expected: 0, desktops: 0 });
  }
  listen(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const REQUESTS = `${PREFIX}desk-replays`;
const answersKey = (id: string) => `${PREFIX}desk-replay:${id}`;
const ANSWER_TTL_SECONDS = 60;
const POLL_MS = 50;

export class RedisReplaySignal implements ReplaySignal {
  private closed = false;
  private lastId = '$';

  private constructor(
    private readonly redis: Redis,
    private readonly tail: Redis,
    private readonly waitMs: number,
    private readonly logger?: Logger,
  ) {}

  static async open(
    target: string | RedisTarget,
    opts: { waitMs?: number; logger?: Logger } = {},
  ): Promise<RedisReplaySignal> {
    const redis = await connectSharedRedis(target, "the desk's replays", {});
    // Its own connection: XREAD BLOCK holds it. It waits out outages instead of failing.
    const tail = redis.duplicate({
      commandTimeout: blockingCommandTimeout(BLOCK_MS),
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
    });
    tail.on('error', () => undefined);
    const signal = new RedisReplaySignal(redis, tail, opts.waitMs ?? 3_000, opts.logger);
    // Only requests made from now on: an old one replayed again would surprise a desktop.
    const last = (await redis.xrevrange(REQUESTS, '+', '-', 'COUNT', 1))[0]?.[0];
    signal.lastId = last ?? '0-0';
    return signal;
  }

  async broadcast(req: ReplayRequest, expected: number): Promise<ReplayAnswers> {
    await this.redis.xadd(REQUESTS, 'MAXLEN', '~', '1000', '*', 'request', JSON.stringify(req));
    const deadline = Date.now() + this.waitMs;
    let got: Record<string, string> = {};
    for (;;) {
      got = await this.redis.hgetall(answersKey(req.id));
      if (Object.keys(got).length >= expected || Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const counts = Object.values(got).map(Number);
    return {
      answered: counts.length,
      expected,
      desktops: counts.reduce((a, b) => a + b, 0),
    };
  }

  listen(node: () => string, handle: (req: ReplayRequest) => Promise<number>): void {
    void this.loop(node, handle);
  }

  private async loop(node: () => string, handle: (req: ReplayRequest) => Promise<number>) {
    while (!this.closed) {
      try {
        const reply = (await this.tail.xread(
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          REQUESTS,
          this.lastId,
        )) as [string, [string, string[]][]][] | null;
        for (const [id, fields] of reply?.[0]?.[1] ?? []) {
          this.lastId = id;
          const req = this.request(id, fields[1]);
          if (!req) continue;
          if (req.origin === node()) continue;
          const reached = await handle(req);
          const key = answersKey(req.id);
          await this.redis
            .multi()
            .hset(key, node(), String(reached))
            .expire(key, ANSWER_TTL_SECONDS)
            .exec();
        }
      } catch (err) {
        if (this.closed) return;
        this.logger?.debug({ err }, 'replay requests: read failed; retrying');
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** One entry of the request stream, checked; a malformed one is logged and skipped. */
  private request(id: string, text: string | undefined): ReplayRequest | null {
    try {
      return parseCheckedJson(`replay request ${id}`, replayRequest, text ?? '');
    } catch (err) {
      this.logger?.warn({ err }, 'replay requests: skipped a malformed request');
      return null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.tail.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
