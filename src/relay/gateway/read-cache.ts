/**
 * One upstream request however many traders ask: identical reads in flight share one
 * request, and a 200 is served again for its route's short lifetime. Kept answers carry
 * an ETag (the service's, else a hash of the body) so a trader's If-None-Match gets 304,
 * and an expired answer with the service's ETag is revalidated with If-None-Match.
 * Memory is bounded: least recently used answers go first past the entry or byte limits.
 */
import { createHash } from 'node:crypto';
import type { FetchUpstream, UpstreamAnswer } from './upstream.js';
import type { ReadRoute } from './read-routes.js';

export interface CachedRead extends UpstreamAnswer {
  /** How this answer was obtained: for tests and the bench (never told to traders). */
  source: 'hit' | 'miss' | 'shared' | 'revalidated';
}

interface Entry {
  answer: UpstreamAnswer;
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
}

const bodyEtag = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<UpstreamAnswer>>();
  private bytes = 0;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  readonly stats: ReadCacheStats = { upstreamRequests: 0, hits: 0, shared: 0 };

  constructor(private readonly opts: ReadCacheOptions) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? 2_000;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  }

  /**
   * `admit` is awaited before the service is asked (not for an answer kept or already
   * being fetched): it throws to refuse the read.
   */
  async read(
    route: ReadRoute,
    admit: () => Promise<void> = async () => undefined,
  ): Promise<CachedRead> {
    const key = `${route.scope}:${route.upstreamPath}`;
    const kept = this.entries.get(key);
    if (kept && this.now() - kept.storedAt < kept.ttlMs) {
      this.stats.hits++;
      // Most recently used last: eviction takes the first.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return { ...kept.answer, source: 'hit' };
    }
    const running = this.inflight.get(key);
    if (running) {
      this.stats.shared++;
      return { ...(await running), source: 'shared' };
    }
    await admit();
    // Another read may have started (or finished) while this one was admitted.
    const started = this.inflight.get(key);
    if (started) {
      this.stats.shared++;
      return { ...(await started), source: 'shared' };
    }
    const p = this.fetchAndKeep(key, route, kept);
    this.inflight.set(key, p);
    try {
      const answer = await p;
      return { ...answer, source: kept && answer === kept.answer ? 'revalidated' : 'miss' };
    } finally {
      this.inflight.delete(key);
    }
  }

  private async fetchAndKeep(
    key: string,
    route: ReadRoute,
    expired: Entry | undefined,
  ): Promise<UpstreamAnswer> {
    this.stats.upstreamRequests++;
    const etag = expired?.upstreamEtag ?? undefined;
    const answer = await this.opts.fetch(route.scope, route.upstreamPath, etag);
    if (answer.status === 304 && expired) {
      this.store(key, { ...expired, storedAt: this.now() });
      return expired.answer;
    }
    if (answer.status !== 200) {
      this.forget(key);
      return answer;
    }
    const upstreamEtag = answer.headers.etag ?? null;
    const kept: UpstreamAnswer = {
      ...answer,
      headers: { ...answer.headers, etag: upstreamEtag ?? bodyEtag(answer.body) },
    };
    this.store(key, { answer: kept, storedAt: this.now(), ttlMs: route.ttlMs, upstreamEtag });
    return kept;
  }

  private store(key: string, entry: Entry): void {
    this.forget(key);
    if (entry.answer.body.length > this.maxBytes / 8) return;
    this.entries.set(key, entry);
    this.bytes += entry.answer.body.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.answer.body.length;
  }
}
