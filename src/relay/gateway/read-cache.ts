/**
 * One upstream request however many traders ask: identical reads in flight share one
 * request, and a 200 is served again for its route's short lifetime, as the bytes kept
 * (a window's dates are indexed once, when kept: window.ts). Kept answers carry
 * an ETag (the service's, else a hash of the body) so a trader's If-None-Match gets 304,
 * and an expired answer with the service's ETag is revalidated with If-None-Match.
 * Memory is bounded: least recently used answers go first past the entry or byte limits.
 * A service answer the same bytes as the expired one keeps its tag and index: re-reading
 * a window of megabytes indexes it once, not once a second (issue #44).
 */
import type { FetchUpstream, UpstreamAnswer } from './upstream.js';
import type { ReadRoute } from './read-routes.js';
import { bodyEtagInSlices, indexWindowInSlices, type WindowIndex } from './window.js';

export interface CachedRead extends UpstreamAnswer {
  /** How this answer was obtained: for tests and the bench (never told to traders). */
  source: 'hit' | 'miss' | 'shared' | 'revalidated';
  /** A window's dates, for cutting without a parse (null: not a window, or not a list). */
  index: WindowIndex | null;
}

/** What one read costs a trader's bucket: a read of the service, or an answer already had. */
export const MISS_COST = 1;
/** A fraction of a miss, a power of two so the bucket counts it exactly. */
export const HIT_COST = 1 / 8;
/** Past this many bytes a kept answer costs more: sending megabytes is work too. */
export const HIT_BYTES_PER_TOKEN = 1024 * 1024;

/**
 * What serving a kept answer of `bytes` costs: an eighth of a read, up to a whole one for
 * an answer of a MiB or more — re-reading a 6 MB window is then paced like reads of the
 * service (2 a second once the burst is spent), not 16 times faster.
 */
export function hitCost(bytes: number): number {
  return Math.min(MISS_COST, Math.max(HIT_COST, bytes / HIT_BYTES_PER_TOKEN));
}

interface Kept {
  answer: UpstreamAnswer;
  index: WindowIndex | null;
}

interface Entry extends Kept {
  storedAt: number;
  ttlMs: number;
  /** The service's own ETag, used to revalidate; null when the relay made one up. */
  upstreamEtag: string | null;
}

export interface ReadCacheOptions {
  fetch: FetchUpstream;
  now?: () => number;
  maxEntries?: number;
  maxBytes?: number;
}

export interface ReadCacheStats {
  upstreamRequests: number;
  hits: number;
  shared: number;
  /** Windows indexed (each a walk of the whole body). */
  indexed: number;
  /** Service answers byte for byte the expired one: its tag and index kept. */
  unchanged: number;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Kept>>();
  private bytes = 0;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  readonly stats: ReadCacheStats = {
    upstreamRequests: 0,
    hits: 0,
    shared: 0,
    indexed: 0,
    unchanged: 0,
  };

  constructor(private readonly opts: ReadCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? 2_000;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  }

  /**
   * `admit(cost)` is awaited before any answer is given: MISS_COST before the service is
   * asked, `hitCost` for an answer kept, HIT_COST for one already being fetched. It throws to refuse the
   * read — the same way for both once the bucket is empty, so a refusal never tells what
   * colleagues read.
   */
  async read(
    route: ReadRoute,
    admit: (cost: number) => Promise<void> = async () => undefined,
  ): Promise<CachedRead> {
    const key = `${route.scope}:${route.upstreamPath}`;
    const kept = this.entries.get(key);
    if (kept && this.now() - kept.storedAt < kept.ttlMs) {
      await admit(hitCost(kept.answer.body.length));
      this.stats.hits++;
      // Most recently used last: eviction takes the first.
      if (this.entries.get(key) === kept) {
        this.entries.delete(key);
        this.entries.set(key, kept);
      }
      return { ...kept.answer, index: kept.index, source: 'hit' };
    }
    const running = this.inflight.get(key);
    if (running) {
      await admit(HIT_COST);
      this.stats.shared++;
      return { ...(await this.share(running)), source: 'shared' };
    }
    await admit(MISS_COST);
    // Another read may have started (or finished) while this one was admitted.
    const started = this.inflight.get(key);
    if (started) {
      this.stats.shared++;
      return { ...(await this.share(started)), source: 'shared' };
    }
    const p = this.fetchAndKeep(key, route, kept);
    this.inflight.set(key, p);
    try {
      const got = await p;
      const revalidated = kept !== undefined && got.answer === kept.answer;
      return { ...got.answer, index: got.index, source: revalidated ? 'revalidated' : 'miss' };
    } finally {
      this.inflight.delete(key);
    }
  }

  private async share(running: Promise<Kept>): Promise<Omit<CachedRead, 'source'>> {
    const got = await running;
    return { ...got.answer, index: got.index };
  }

  private async fetchAndKeep(
    key: string,
    route: ReadRoute,
    expired: Entry | undefined,
  ): Promise<Kept> {
    this.stats.upstreamRequests++;
    const etag = expired?.upstreamEtag ?? undefined;
    const answer = await this.opts.fetch(route.scope, route.upstreamPath, etag);
    if (answer.status === 304 && expired) {
      this.store(key, { ...expired, storedAt: this.now() });
      return expired;
    }
    if (answer.status !== 200) {
      this.forget(key);
      return { answer, index: null };
    }
    const upstreamEtag = answer.headers.etag ?? null;
    if (expired && sameAnswer(expired, answer, upstreamEtag)) {
      this.stats.unchanged++;
      this.store(key, { ...expired, storedAt: this.now() });
      return expired;
    }
    const kept: UpstreamAnswer = {
      ...answer,
      headers: { ...answer.headers, etag: upstreamEtag ?? (await bodyEtagInSlices(answer.body)) },
    };
    if (route.window) this.stats.indexed++;
    const index = route.window ? await indexWindowInSlices(kept) : null;
    this.store(key, {
      answer: kept,
      index,
      storedAt: this.now(),
      ttlMs: route.ttlMs,
      upstreamEtag,
    });
    return { answer: kept, index };
  }

  private store(key: string, entry: Entry): void {
    this.forget(key);
    if (sizeOf(entry) > this.maxBytes / 8) return;
    this.entries.set(key, entry);
    this.bytes += sizeOf(entry);
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= sizeOf(entry);
  }
}

/** The service answered what it answered before (a memcmp, not a hash or an index). */
function sameAnswer(expired: Entry, answer: UpstreamAnswer, upstreamEtag: string | null): boolean {
  const was = expired.answer;
  const passed = (h: Record<string, string>) =>
    JSON.stringify(Object.entries(h).filter(([name]) => name !== 'etag'));
  return (
    was.status === answer.status &&
    expired.upstreamEtag === upstreamEtag &&
    passed(was.headers) === passed(answer.headers) &&
    was.body.equals(answer.body)
  );
}

/** An entry's bytes: the answer's, and its index's (its own copy only if the bytes differ). */
function sizeOf(entry: Entry): number {
  const index = entry.index;
  if (!index) return entry.answer.body.length;
  const copy = index.items === entry.answer.body ? 0 : index.items.length;
  return entry.answer.body.length + copy + index.times.length * 16;
}
