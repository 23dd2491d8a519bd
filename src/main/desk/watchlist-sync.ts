/**
 * Desk mode: the watch list goes to the desk relay (`PUT /watchlist`), which serves it as
 * the user's webcal feed. Every change (and every start or relay change) schedules one
 * debounced upload of the whole list — idempotent, so a retry can never apply an old
 * state after a newer one. A failed upload is retried with backoff until it succeeds; the
 * list itself lives in the settings file, so nothing is lost meanwhile, and the state
 * (pending, last error) is shown in Settings.
 */
import type { Logger } from 'pino';
import {
  feedUrlSchema,
  isServiceId,
  WATCHLIST_MAX,
  type CalendarFeedInfo,
  type WatchlistSyncState,
} from '../../shared/calendar-feed.js';
import { parseRelayUrls } from '../../shared/relay-urls.js';
import { realTimers, type Timers } from '../../shared/timers.js';
import { defaultHttpClient, HttpError, type HttpClient } from '../../node/http/client.js';
import { backoffDelay, retryAfterOf } from '../../node/backoff.js';
import { messageOf } from '../../shared/error-message.js';

export interface WatchlistSyncOptions {
  /** Desk mode now (the relay holds the keys). */
  isDesk: () => boolean;
  /** The relay setting (one URL or several, comma-separated). */
  relayUrl: () => string | null;
  relayToken: () => Promise<string | null>;
  watchedEventIds: () => readonly string[];
  onState?: () => void;
  http?: HttpClient;
  logger?: Logger;
  timers?: Timers;
  now?: () => number;
  debounceMs?: number;
  retry?: { minMs: number; maxMs: number };
}

const NOT_DESK =
  'The calendar feed comes from a desk relay: choose Connection → Desk relay to subscribe to your watched events in Outlook, Google or Apple Calendar.';

/** The relay's error body message, else the HTTP failure in words. */
function relayMessage(err: unknown): string {
  if (err instanceof HttpError) {
    const m = (err.json as { message?: unknown } | null)?.message;
    if (err.status === 401)
      return 'The desk relay refused your personal token (mistyped or revoked).';
    return typeof m === 'string' ? m.slice(0, 300) : `The desk relay answered HTTP ${err.status}.`;
  }
  return messageOf(err);
}

export class WatchlistSync {
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly http: HttpClient;
  private timer: unknown = null;
  private uploading: Promise<void> | null = null;
  private dirty = false;
  private failures = 0;
  private stopped = false;
  private connected = false;
  private status: WatchlistSyncState = { count: 0, pending: false, syncedAt: null, error: null };

  constructor(private readonly opts: WatchlistSyncOptions) {
    this.timers = opts.timers ?? realTimers;
    this.now = opts.now ?? Date.now;
    this.http = opts.http ?? defaultHttpClient();
  }

  state(): WatchlistSyncState {
    return { ...this.status, count: this.ids().length };
  }

  /** The watch list (or the relay) changed, or the app connected: upload soon. */
  changed(): void {
    if (this.stopped || !this.opts.isDesk()) return;
    this.dirty = true;
    this.failures = 0;
    this.setStatus({ pending: true });
    this.schedule(this.opts.debounceMs ?? 1_000);
  }

  /** On every (re)connection to the relay, upload again: a relay restored from a backup
   *  or a failover node may not hold the latest list. */
  relayConnected(connected: boolean): void {
    if (connected && !this.connected) this.changed();
    this.connected = connected;
  }

  /** Resolves when no upload is waiting or running (tests). */
  async idle(): Promise<void> {
    while (this.uploading) await this.uploading;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The feed's URL from the relay (`rotate`: a new one; the old stops working). */
  async feed(rotate: boolean): Promise<CalendarFeedInfo> {
    if (!this.opts.isDesk()) return { desk: false, message: NOT_DESK };
    const base = { desk: true as const, watchlist: this.state() };
    try {
      const { json } = await this.send(rotate ? 'POST' : 'GET', '/calendar/feed-url');
      const parsed = feedUrlSchema.safeParse(json);
      if (!parsed.success)
        return { ...base, url: null, webcal: null, error: 'The desk relay sent no feed URL.' };
      return { ...base, url: parsed.data.url, webcal: parsed.data.webcal, error: null };
    } catch (err) {
      return { ...base, url: null, webcal: null, error: relayMessage(err) };
    }
  }

  private ids(): string[] {
    return this.opts.watchedEventIds().filter(isServiceId).slice(0, WATCHLIST_MAX);
  }

  private setStatus(patch: Partial<WatchlistSyncState>): void {
    this.status = { ...this.status, ...patch };
    this.opts.onState?.();
  }

  private schedule(ms: number): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private async run(): Promise<void> {
    if (this.uploading) {
      // One upload at a time; the one running will see `dirty` and go again.
      return;
    }
    this.uploading = this.upload().finally(() => {
      this.uploading = null;
    });
    await this.uploading;
  }

  private async upload(): Promise<void> {
    while (this.dirty && !this.stopped && this.opts.isDesk()) {
      this.dirty = false;
      const eventIds = this.ids();
      try {
        await this.send('PUT', '/watchlist', { eventIds });
        this.failures = 0;
        if (!this.dirty) this.setStatus({ pending: false, syncedAt: this.now(), error: null });
      } catch (err) {
        this.dirty = true;
        this.failures++;
        const { minMs, maxMs } = this.opts.retry ?? { minMs: 5_000, maxMs: 300_000 };
        const policy = { baseMs: minMs, maxMs, jitter: 'none' } as const;
        const wait = backoffDelay(policy, this.failures - 1, { retryAfterMs: retryAfterOf(err) });
        const error = relayMessage(err);
        this.opts.logger?.warn({ err, retryInMs: wait }, 'watch list not uploaded to the relay');
        this.setStatus({
          pending: true,
          error: `${error} Retrying in ${Math.ceil(wait / 1000)} s.`,
        });
        this.schedule(wait);
        return;
      }
    }
  }

  /** One call to the relay: each configured node in order until one answers. */
  private async send(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
    const setting = this.opts.relayUrl();
    const token = await this.opts.relayToken();
    if (!setting || !token)
      throw new Error('Desk relay mode needs the relay URL and your personal token.');
    let last: unknown = null;
    for (const url of parseRelayUrls(setting)) {
      try {
        return await this.http.requestJson({
          method,
          url: `${url.replace(/\/+$/, '')}${path}`,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          retry: false,
        });
      } catch (err) {
        // An answer (4xx/5xx) is the relay's word; only an unreachable node moves on.
        if (err instanceof HttpError) throw err;
        last = err;
      }
    }
    throw last ?? new Error('No relay URL configured.');
  }
}
