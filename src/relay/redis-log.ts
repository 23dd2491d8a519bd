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
import { commitLatencyHistogram } from './metrics.js';
import { checkDurability, type Durability, type DurabilityMode } from './redis-durability.js';
import { connectOrExplain, createRedisClient, type RedisTarget } from './redis-client.js';
import { RedisBatchAppender, type BatchAppendingRedis } from './redis-appender.js';
import { StoreGeneration, defineMarkerScripts } from './redis-generation.js';
import { APPEND_BATCH_SCRIPT, PREFIX, STREAM, TRIMMED, TRIM_SCRIPT } from './redis-scripts.js';
import { SQLITE_EVENT_ID, STREAM_EVENT_ID } from '../shared/relay-ids.js';

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
}

type Entry = [Buffer, Buffer[]];
/** Plain reasons for /healthz and 503 bodies (no client-library text, no Redis address). */
const LOST = 'the relay lost its connection to Redis and is reconnecting';
const UNPROMISED =
  'Redis is not set up to keep stored webhooks safely (see the relay log); webhooks are refused until it is';
const DURABILITY_RECHECK_MS = 1000;
const EMPTY = Buffer.alloc(0);

/** An entry's fields (written as t, type, body, h), read in one pass over the reply. */
function toEvent([id, fields]: Entry): StoredEvent {
  let receivedAt = 0;
  let type = '';
  let body: Buffer = EMPTY;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i] as Buffer;
    const value = fields[i + 1] as Buffer;
    if (name.length === 1 && name[0] === 0x74) receivedAt = Number(value.toString('latin1'));
    else if (name.length === 4 && name[0] === 0x74) type = value.toString();
    else if (name.length === 4 && name[0] === 0x62) body = value;
  }
  return { id: id.toString('latin1'), receivedAt, type, body };
}

/** XINFO STREAM's flat reply as a map (null when the stream does not exist yet). */
async function streamInfo(redis: Redis): Promise<Map<string, unknown> | null> {
  try {
    const flat = (await redis.call('XINFO', 'STREAM', STREAM)) as unknown[];
    const m = new Map<string, unknown>();
    for (let i = 0; i < flat.length; i += 2) m.set(String(flat[i]), flat[i + 1]);
    return m;
  } catch (err) {
    if (/no such key/i.test((err as Error).message)) return null;
    throw err;
  }
}

export class RedisEventLog implements EventLog {
  readonly backend = 'redis';
  readonly commitLatency = commitLatencyHistogram();
  ingested = 0;
  storeFailures = 0;
  private readonly listeners = new Set<(events: StoredEvent[]) => void>();
  private tailId = '0-0';
  private closed = false;
  private down: string | null = null;
  private recheck: NodeJS.Timeout | null = null;
  private generationTimer: NodeJS.Timeout | null = null;
  private readonly where: string;
  private readonly appender: RedisBatchAppender;
  private readonly generation: StoreGeneration;

  private constructor(
    private readonly redis: AppendingRedis,
    private readonly tail: Redis,
    private durability: Durability,
    private readonly opts: RedisLogOptions,
  ) {
    const u = new URL(opts.url);
    this.where = `${u.hostname}:${u.port || 6379}`;
    this.generation = new StoreGeneration(redis, {
      dataDir: opts.dataDir,
      now: opts.now ?? Date.now,
      logger: opts.logger,
    });
    this.appender = new RedisBatchAppender(redis, {
      dedupWindowMs: opts.dedupWindowMs ?? 3_600_000,
      now: opts.now ?? Date.now,
      waitReplicas: () => this.durability.waitReplicas,
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
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        enableAutoPipelining: false,
      });
      tail.on('error', () => undefined);
      const log = new RedisEventLog(redis, tail, durability, opts);
      const info = await streamInfo(redis);
      log.tailId = String(info?.get('last-generated-id') ?? '0-0');
      await log.checkGeneration();
      log.watchConnection();
      void log.tailLoop();
      return log;
    } catch (err) {
      redis.disconnect();
      throw err;
    }
  }

  /** The store-generation marker against what this node knew (redis-generation.ts). */
  private async checkGeneration(): Promise<void> {
    const info = await streamInfo(this.redis);
    await this.generation.check(String(info?.get('last-generated-id') ?? '0-0'), this.tailId);
  }

  /**
   * While all is well, every few seconds: the durability promise (a live `CONFIG SET
   * appendfsync everysec` must not go unnoticed: ingest turns 503 with the reason, and
   * back once it is fixed) and the store-generation marker.
   */
  private async recheckWhileOk(): Promise<void> {
    try {
      this.durability = await checkDurability(this.redis, this.opts.durability ?? 'strict');
    } catch (err) {
      if (this.down !== null || this.redis.status !== 'ready' || this.closed) return;
      this.opts.logger?.error(
        { err, redis: this.where },
        'Redis stopped keeping the durability promise; refusing webhooks until it does',
      );
      this.down = UNPROMISED;
      this.recheck = setTimeout(() => this.checkPromise(), DURABILITY_RECHECK_MS);
      this.recheck.unref();
      return;
    }
    await this.checkGeneration();
  }

  private watchGeneration(): void {
    if (this.closed) return;
    this.generationTimer = setTimeout(() => {
      const check =
        this.redis.status === 'ready' && this.down === null
          ? this.recheckWhileOk()
          : Promise.resolve();
      check
        .catch((err: unknown) => this.opts.logger?.debug({ err }, 'generation check failed'))
        .finally(() => this.watchGeneration());
    }, this.opts.generationCheckMs ?? 5000);
    this.generationTimer.unref();
  }

  private watchConnection(): void {
    this.watchGeneration();
    // Back after an outage: Redis may have restarted with other settings, so the promise
    // is checked again before webhooks are acknowledged (503 until it holds).
    this.redis.on('ready', () => this.checkPromise());
    this.redis.on('close', () => {
      if (this.closed || this.down === LOST) return;
      this.down = LOST;
      this.opts.logger?.error({ redis: this.where }, 'Redis connection lost; reconnecting');
    });
  }

  /**
   * Reads Redis's settings; while they fall short, again every second, so an operator's
   * live fix (`CONFIG SET appendfsync always`) restores ingest without a restart.
   */
  private checkPromise(): void {
    if (this.recheck) clearTimeout(this.recheck);
    this.recheck = null;
    if (this.closed || this.redis.status !== 'ready') return;
    checkDurability(this.redis, this.opts.durability ?? 'strict')
      .then(async (d) => {
        // Before webhooks are taken again: did Redis come back empty or older?
        await this.checkGeneration().catch((err: unknown) =>
          this.opts.logger?.warn({ err }, 'could not read the store-generation marker'),
        );
        return d;
      })
      .then(
        (d) => {
          this.durability = d;
          if (this.down !== null)
            this.opts.logger?.info({ redis: this.where }, 'Redis ingest restored');
          this.down = null;
        },
        (err: unknown) => {
          if (this.down !== UNPROMISED)
            this.opts.logger?.error(
              { err, redis: this.where },
              'Redis cannot keep the durability promise; refusing webhooks until it can',
            );
          this.down = UNPROMISED;
          this.recheck = setTimeout(() => this.checkPromise(), DURABILITY_RECHECK_MS);
          this.recheck.unref();
        },
      );
  }

  /** Follows the stream from the last id seen, so every node's appends reach its clients. */
  private async tailLoop(): Promise<void> {
    while (!this.closed) {
      try {
        const reply = (await this.tail.xreadBuffer(
          'COUNT',
          1000,
          'BLOCK',
          2000,
          'STREAMS',
          STREAM,
          this.tailId,
        )) as [Buffer, Entry[]][] | null;
        const entries = reply?.[0]?.[1] ?? [];
        if (entries.length === 0) continue;
        const events = entries.map(toEvent);
        this.tailId = (events.at(-1) as StoredEvent).id;
        this.listeners.forEach((l) => l(events));
      } catch (err) {
        if (this.closed) return;
        this.opts.logger?.debug({ err }, 'tail read failed; retrying');
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  append(body: Buffer, type: string, headers: Record<string, string>): Promise<string> {
    if (this.down !== null || this.redis.status !== 'ready') {
      this.storeFailures++;
      return Promise.reject(new StoreUnavailable(this.down ?? LOST));
    }
    return this.appender.append(body, type, JSON.stringify(headers));
  }

  onAppend(listener: (events: StoredEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
      )) as Entry[];
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
    const entries = (await this.redis.xrevrangeBuffer(STREAM, '+', '-', 'COUNT', limit)) as Entry[];
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

  async trim(olderThanMs: number): Promise<number> {
    const cutoff = (this.opts.now ?? Date.now)() - olderThanMs;
    return Number(await this.redis.mbTrim(STREAM, TRIMMED, `${Math.max(0, cutoff)}-0`));
  }

  async stats(): Promise<{ rows: number; bytes: null }> {
    return { rows: await this.redis.xlen(STREAM), bytes: null };
  }

  health(): LogHealth {
    const durability = this.durability.relaxed ? this.durability.describe : undefined;
    if (this.down !== null) return { ok: false, reason: this.down, durability };
    const storeLost = this.generation.lost();
    if (storeLost) return { ok: false, reason: storeLost.reason, durability, storeLost };
    return { ok: true, durability };
  }

  describeDurability(): string {
    return this.durability.describe;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.recheck) clearTimeout(this.recheck);
    if (this.generationTimer) clearTimeout(this.generationTimer);
    this.tail.disconnect();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
