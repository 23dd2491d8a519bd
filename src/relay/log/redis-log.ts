/**
 * The relay's log on Redis Streams: any number of relay nodes share one stream, so each
 * serves any reader with the same ids. The appends read in one turn go to Redis in one Lua
 * script call (redis-appender.ts: for each, a dedup check by the hash of the raw body, XADD,
 * a dedup mark) so the HA pair's two copies are stored once; the ack waits for what the
 * server promises (fsync'd AOF, or WAIT for a replica). Each node tails the stream
 * (XREAD BLOCK) to feed its live clients with every node's appends.
 */
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import {
  SEEK_SKEW_MS,
  StoreUnavailable,
  compareIds,
  type EventLog,
  type LogHealth,
  type ResumePoint,
  type StoredEvent,
} from './event-log.js';
import { Emitter } from '../../shared/event.js';
import { commitLatencyHistogram } from '../metrics.js';
import { checkDurability, type Durability, type DurabilityMode } from './redis-durability.js';
import { DurabilityWatch } from './redis-durability-watch.js';
import {
  blockingCommandTimeout,
  connectOrExplain,
  createRedisClient,
  type RedisTarget,
} from '../redis/redis-client.js';
import { RedisBatchAppender, type BatchAppendingRedis } from './redis-appender.js';
import { StoreGeneration, defineMarkerScripts } from './redis-generation.js';
import { streamInfo, toEvent, type StreamEntry } from './redis-stream-entries.js';
import {
  APPEND_BATCH_SCRIPT,
  PREFIX,
  STREAM,
  TRIMMED,
  TRIM_SCRIPT,
} from '../redis/redis-scripts.js';
import { SQLITE_EVENT_ID, STREAM_EVENT_ID } from '../../shared/relay-ids.js';

/** How long one XREAD of the tail waits for new entries. */
const TAIL_BLOCK_MS = 2000;

type AppendingRedis = BatchAppendingRedis & {
  mbTrim(stream: string, trimmedKey: string, minId: string): Promise<number>;
};

export interface RedisLogOptions extends RedisTarget {
  durability?: DurabilityMode;
  /** How long a body's hash is kept to drop the HA pair's second copy (and retries). */
  dedupWindowMs?: number;
  now?: () => number;
  logger?: Logger;
  /** Where this node remembers the store's generation (redis-generation.ts). */
  dataDir?: string;
  /** How often the generation marker is read again (default 5 s). */
  generationCheckMs?: number;
  /** A ping unanswered this long means Redis is frozen for this node (default 3 s). */
  frozenAfterMs?: number;
}

export class RedisEventLog implements EventLog {
  readonly backend = 'redis';
  readonly commitLatency = commitLatencyHistogram();
  ingested = 0;
  storeFailures = 0;
  /** Subscribers of what the tail read (isolated: one that throws skips none of the others). */
  private readonly appended = new Emitter<StoredEvent[]>((err) =>
    this.opts.logger?.error({ err }, 'a relay log subscriber failed'),
  );
  private tailId = '0-0';
  private closed = false;
  private readonly appender: RedisBatchAppender;
  private readonly generation: StoreGeneration;
  /** Connected and keeping the durability promise, or why webhooks are refused. */
  private readonly watch: DurabilityWatch;

  private constructor(
    private readonly redis: AppendingRedis,
    private readonly tail: Redis,
    durability: Durability,
    private readonly opts: RedisLogOptions,
  ) {
    const u = new URL(opts.url);
    this.watch = new DurabilityWatch(redis, durability, {
      mode: opts.durability ?? 'strict',
      where: `${u.hostname}:${u.port || 6379}`,
      logger: opts.logger,
      checkEveryMs: opts.generationCheckMs ?? 5000,
      checkGeneration: () => this.checkGeneration(),
      frozenAfterMs: opts.frozenAfterMs,
    });
    this.generation = new StoreGeneration(redis, {
      dataDir: opts.dataDir,
      now: opts.now ?? Date.now,
      logger: opts.logger,
    });
    this.appender = new RedisBatchAppender(redis, {
      dedupWindowMs: opts.dedupWindowMs ?? 3_600_000,
      now: opts.now ?? Date.now,
      waitReplicas: () => this.watch.current.waitReplicas,
      onCommitted: (seconds, count) => {
        this.commitLatency.observe(seconds);
        this.ingested += count;
      },
      onFailed: (count) => {
        this.storeFailures += count;
      },
    });
  }

  static async open(opts: RedisLogOptions): Promise<RedisEventLog> {
    const redis = createRedisClient(opts, {
      lazyConnect: true,
      // While Redis is away, appends fail at once (503, the service retries) instead of queueing.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      enableAutoPipelining: true,
      retryStrategy: (n) => Math.min(100 * n, 2000),
    }) as AppendingRedis;
    redis.on('error', () => undefined); // reported through health(); reconnects by itself
    redis.defineCommand('mbAppendBatch', { lua: APPEND_BATCH_SCRIPT });
    redis.defineCommand('mbTrim', { numberOfKeys: 2, lua: TRIM_SCRIPT });
    defineMarkerScripts(redis);
    await connectOrExplain(redis, 'the webhook log');
    try {
      const durability = await checkDurability(redis, opts.durability ?? 'strict');
      await redis.set(`${PREFIX}write_probe`, String(Date.now())).catch((err: unknown) => {
        throw new Error(`Redis refused a write: ${(err as Error).message}`);
      });
      const tail = redis.duplicate({
        commandTimeout: blockingCommandTimeout(TAIL_BLOCK_MS),
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        enableAutoPipelining: false,
      });
      tail.on('error', () => undefined);
      const log = new RedisEventLog(redis, tail, durability, opts);
      const info = await streamInfo(redis);
      log.tailId = String(info?.get('last-generated-id') ?? '0-0');
      await log.checkGeneration();
      log.watch.start();
      void log.tailLoop();
      return log;
    } catch (err) {
      redis.disconnect();
      throw err;
    }
  }

  /** The store-generation marker against what this node knew (redis-generation.ts). */
  private async checkGeneration(): Promise<void> {
    // What this node had seen before the read: its tail moves on while XINFO is answered,
    // and a burst would otherwise look like Redis having lost what the tail just read.
    const seen = this.tailId;
    const info = await streamInfo(this.redis);
    await this.generation.check(String(info?.get('last-generated-id') ?? '0-0'), seen);
  }

  /** Follows the stream from the last id seen, so every node's appends reach its clients. */
  private async tailLoop(): Promise<void> {
    while (!this.closed) {
      try {
        const reply = (await this.tail.xreadBuffer(
          'COUNT',
          1000,
          'BLOCK',
          TAIL_BLOCK_MS,
          'STREAMS',
          STREAM,
          this.tailId,
        )) as [Buffer, StreamEntry[]][] | null;
        const entries = reply?.[0]?.[1] ?? [];
        if (entries.length === 0) continue;
        const events = entries.map(toEvent);
        this.tailId = (events.at(-1) as StoredEvent).id;
        this.appended.fire(events);
      } catch (err) {
        if (this.closed) return;
        this.opts.logger?.debug({ err }, 'tail read failed; retrying');
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  append(body: Buffer, type: string, headers: Record<string, string>): Promise<string> {
    const refused = this.watch.refusal();
    if (refused !== null) {
      this.storeFailures++;
      return Promise.reject(new StoreUnavailable(refused));
    }
    return this.appender.append(body, type, JSON.stringify(headers));
  }

  onAppend(listener: (events: StoredEvent[]) => void): () => void {
    const subscription = this.appended.event(listener);
    return () => subscription.dispose();
  }

  /** Read in growing chunks, so a page of 1 MiB bodies never loads far past maxBytes. */
  async after(
    id: string,
    limit: number,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    let bytes = 0;
    let start = id === '0' || id === '0-0' ? '-' : `(${id}`;
    let chunk = Math.min(limit, 8);
    while (out.length < limit && bytes < maxBytes) {
      const entries = (await this.redis.xrangeBuffer(
        STREAM,
        start,
        '+',
        'COUNT',
        chunk,
      )) as StreamEntry[];
      for (const entry of entries) {
        const e = toEvent(entry);
        if (out.length > 0 && bytes + e.body.length > maxBytes) return out;
        bytes += e.body.length;
        out.push(e);
        if (out.length >= limit) return out;
      }
      if (entries.length < chunk) break;
      start = `(${(out.at(-1) as StoredEvent).id}`;
      chunk = Math.min(limit - out.length, chunk * 4);
    }
    return out;
  }

  /** A stream entry is read whole: once, at start (log-positions.ts). */
  async lastPositions(limit: number): Promise<{ id: string; receivedAt: number }[]> {
    const entries = (await this.redis.xrevrangeBuffer(
      STREAM,
      '+',
      '-',
      'COUNT',
      limit,
    )) as StreamEntry[];
    return entries.reverse().map((entry) => {
      const e = toEvent(entry);
      return { id: e.id, receivedAt: e.receivedAt };
    });
  }

  lastId(): string {
    return this.tailId;
  }

  /** Stream ids and "0"; a plain integer is from a SQLite log: it resumes with a reset. */
  parseId(raw: string): string | null {
    if (raw === '0' || STREAM_EVENT_ID.test(raw)) return raw;
    return SQLITE_EVENT_ID.test(raw) ? raw : null;
  }

  async resume(after: string): Promise<ResumePoint> {
    const info = await streamInfo(this.redis);
    const lastId = String(info?.get('last-generated-id') ?? '0-0');
    const first = info?.get('first-entry') as [string, unknown] | null | undefined;
    const oldestId = first ? String(first[0]) : null;
    const trimmed = (await this.redis.get(TRIMMED)) ?? '0-0';
    const foreign = after !== '0' && !STREAM_EVENT_ID.test(after);
    const gap = foreign || compareIds(trimmed, after) > 0 || compareIds(after, lastId) > 0;
    return { from: gap ? '0' : after, gap, oldestId, lastId };
  }

  /** Stream ids begin with the time Redis added the entry: start there, less the skew. */
  seek(since: number): Promise<string> {
    return Promise.resolve(`${Math.max(0, since - SEEK_SKEW_MS)}-0`);
  }

  /**
   * Trims by Redis's clock: the stream's ids carry the time Redis stamped them with, so a
   * node whose own clock runs ahead (a VM with a wrong clock) must not drop recent webhooks
   * of the whole desk. The time comes from `INFO server` (the relay's ACL user has no TIME).
   */
  async trim(olderThanMs: number): Promise<number> {
    const cutoff = (await this.storeNow()) - olderThanMs;
    return Number(await this.redis.mbTrim(STREAM, TRIMMED, `${Math.max(0, cutoff)}-0`));
  }

  /** Redis's own time (ms), or this node's when Redis does not say it. */
  private async storeNow(): Promise<number> {
    const usec = /^server_time_usec:(\d+)\r?$/m.exec(await this.redis.info('server'))?.[1];
    return usec === undefined ? (this.opts.now ?? Date.now)() : Math.floor(Number(usec) / 1000);
  }

  async stats(): Promise<{ rows: number; bytes: null }> {
    return { rows: await this.redis.xlen(STREAM), bytes: null };
  }

  health(): LogHealth {
    const unverified = this.watch.unverified() ?? undefined;
    const promise = this.watch.current;
    const durability = promise.relaxed ? promise.describe : unverified;
    const down = this.watch.downReason();
    if (down !== null)
      return {
        ok: false,
        reason: down,
        durability,
        ...(this.watch.cutOff() === null ? {} : { cutOff: true as const }),
      };
    const storeLost = this.generation.lost();
    if (storeLost) return { ok: false, reason: storeLost.reason, durability, storeLost };
    return { ok: true, durability, ...(unverified ? { durabilityUnverified: unverified } : {}) };
  }

  onCutOff(listener: (reason: string | null) => void): () => void {
    const subscription = this.watch.onDidChangeCutOff(listener);
    return () => subscription.dispose();
  }

  storeSilentMs(): number {
    return this.watch.silentMs();
  }

  describeDurability(): string {
    return this.watch.current.describe;
  }

  /** Times the store went from taking webhooks to refusing them (alert-conditions.ts). */
  get outages(): number {
    return this.watch.outages;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watch.stop();
    this.tail.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
