/**
 * Group commit on Redis: every webhook read in one turn of the event loop goes to Redis
 * in one script call (dedup check, XADD and dedup mark for each, atomically), so the relay
 * pays one command — and Redis one script run and one AOF fsync — per batch instead of
 * per webhook. With a replica as the promise, one WAIT covers the whole batch.
 */
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { StoreUnavailable } from './event-log.js';
import { PREFIX, STREAM } from '../redis/redis-scripts.js';

export type BatchAppendingRedis = Redis & {
  mbAppendBatch(numKeys: number, ...keysAndArgs: (string | number | Buffer)[]): Promise<string[]>;
};

interface Pending {
  body: Buffer;
  type: string;
  headers: string;
  resolve: (id: string) => void;
  reject: (err: unknown) => void;
}

/** One script call carries at most this many webhooks / body bytes (a 1 MiB body goes alone). */
const MAX_BATCH = 256;
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

export interface AppenderOptions {
  dedupWindowMs: number;
  now: () => number;
  /** Replicas that must confirm each batch (0 = the fsync'd AOF is the promise). */
  waitReplicas: () => number;
  /** After each batch: how long it took (s) and how many it stored, or the failure. */
  onCommitted: (seconds: number, count: number) => void;
  onFailed: (count: number) => void;
}

export class RedisBatchAppender {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly redis: BatchAppendingRedis,
    private readonly opts: AppenderOptions,
  ) {}

  /** Resolves with the stream id once Redis holds the body as durably as promised. */
  append(body: Buffer, type: string, headers: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.pending.push({ body, type, headers, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // Every request already read this turn joins the batch.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      let bytes = 0;
      let n = 0;
      while (n < this.pending.length && n < MAX_BATCH) {
        bytes += (this.pending[n] as Pending).body.length;
        if (n > 0 && bytes > MAX_BATCH_BYTES) break;
        n++;
      }
      void this.commit(this.pending.splice(0, n));
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const start = performance.now();
    const keys: string[] = [STREAM];
    const args: (string | number | Buffer)[] = [this.opts.dedupWindowMs, this.opts.now()];
    for (const p of batch) {
      keys.push(`${PREFIX}dedup:${createHash('sha256').update(p.body).digest('hex')}`);
      args.push(p.type, p.body, p.headers);
    }
    let ids: string[];
    try {
      ids = await this.redis.mbAppendBatch(keys.length, ...keys, ...args);
      const want = this.opts.waitReplicas();
      if (want > 0 && (await this.redis.wait(want, 2000)) < want)
        throw new StoreUnavailable('no Redis replica confirmed the write in time');
    } catch (err) {
      this.opts.onFailed(batch.length);
      // Plain words for the 503; the client library's text stays in the relay's log (cause).
      const failure =
        err instanceof StoreUnavailable
          ? err
          : new StoreUnavailable('Redis did not take the write', { cause: err });
      batch.forEach((p) => p.reject(failure));
      return;
    }
    this.opts.onCommitted((performance.now() - start) / 1000, batch.length);
    batch.forEach((p, i) => p.resolve(String(ids[i])));
  }
}
