/**
 * The app's side of the relay: one SSE connection, resumed with Last-Event-ID after any
 * gap, notifications applied strictly in order (the cursor is persisted by `apply` in the
 * same step), reconnect with exponential backoff and full jitter, and a heartbeat
 * watchdog — a connection silent for 45 s (three missed heartbeats) is replaced. With
 * several relay URLs (an HA pair), a failed or lost connection moves to the next one at
 * once, always resuming from the last applied id (ids are the same on every node); the
 * backoff applies once a whole round of the list has failed.
 */
import { request } from 'undici';
import { RELAY_EVENT_ID } from '../../shared/relay-ids.js';
import { parseRelayUrls } from '../../shared/relay-urls.js';
import { backoffDelay, retryAfterMs, type BackoffPolicy } from '../../node/backoff.js';
import type { RelayConsumerOptions, RelayStatus } from './live-source.js';
import { readSse, type SseMessage } from './sse-reader.js';
import {
  notificationItem,
  resetOldestId,
  storeRefusing,
  unavailableReason,
  type RelayItem,
} from './relay-messages.js';
import { parseReplayed, type ReplayedItem } from './relay-replay.js';
import { RelayCutOff, RelayRefused, TokenRejected } from './relay-refusals.js';
import { RelayBehindWatch } from './relay-behind.js';
import { messageOf } from '../../shared/error-message.js';

export { TOKEN_REJECTED } from './relay-refusals.js';
/** A connection counts as healthy (backoff resets) after this long or its first event. */
const HEALTHY_AFTER_MS = 5_000;
/** A replay that failed for the machine's or the network's sake: 1 s, doubling, to 1 min. */
const REPLAY_RETRY = { minMs: 1_000, maxMs: 60_000 };
/** Reconnecting: 0.5 s, doubling, to 30 s. */
const RECONNECT = { minMs: 500, maxMs: 30_000 };

export class RelayConsumer {
  private running = false;
  private abort: AbortController | null = null;
  private status: RelayStatus = {
    connected: false,
    node: null,
    lastEventId: null,
    lastEventAt: null,
    lagMs: null,
    error: null,
    behind: null,
  };
  /** What the heartbeats say of the node's head and store (relay-behind.ts). */
  private readonly behindWatch = new RelayBehindWatch();
  private attempt = 0;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Replays waiting to be tried again (relay-replay.ts): cleared at stop. */
  private readonly replayRetries = new Set<NodeJS.Timeout>();
  /** Highest id applied on this connection; null after a reset (accept what follows). */
  private cursor: string | null = null;
  private readonly urls: string[];
  /** The node in use: the list's first, until it fails. */
  private node = 0;

  constructor(private readonly opts: RelayConsumerOptions) {
    this.urls = parseRelayUrls(opts.url);
    if (this.urls.length === 0) this.urls.push(opts.url);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.status.lastEventId = this.opts.getLastEventId();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const t of this.replayRetries) clearTimeout(t);
    this.replayRetries.clear();
    this.abort?.abort();
    this.wake?.();
    await this.loop?.catch(() => undefined);
    this.loop = null;
    this.update({ connected: false });
  }

  private update(patch: Partial<RelayStatus>): void {
    this.status = { ...this.status, ...patch };
    this.opts.onStatus(this.status);
  }

  private async run(): Promise<void> {
    let first = true;
    for (let n = 0; this.running; n++) {
      let factor = 1;
      let hint: number | null = null;
      try {
        await this.connectOnce(first);
        first = false;
      } catch (err) {
        if (!this.running) break;
        first = false;
        const message = messageOf(err);
        this.opts.logger?.warn({ err }, 'relay connection lost');
        this.update({ connected: false, error: message });
        // A wrong token will not fix itself quickly: retry much more slowly.
        if (err instanceof TokenRejected) factor = 10;
        if (err instanceof RelayRefused) hint = err.retryAfterMs;
      }
      if (!this.running) break;
      // Next node at once; wait (with backoff) only after the whole list was tried.
      this.node = (this.node + 1) % this.urls.length;
      if (this.node === 0 || factor > 1) await this.sleep(this.backoff(factor, hint));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref?.();
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  /** Full jitter from `fallback`'s bounds, or the ones the options give (tests: fast). */
  private policy(fallback: { minMs: number; maxMs: number }): BackoffPolicy {
    const { minMs, maxMs } = this.opts.backoff ?? fallback;
    return { baseMs: minMs, maxMs, jitter: 'full' };
  }

  /** Full jitter below min(max, min·2^attempt)·factor; the relay's Retry-After wins. */
  private backoff(factor: number, retryAfter: number | null): number {
    const delay = backoffDelay(this.policy(RECONNECT), this.attempt, {
      factor,
      retryAfterMs: retryAfter,
    });
    this.attempt = Math.min(this.attempt + 1, 20);
    return delay;
  }

  /** One connection: returns when the server ends the stream; throws on errors. */
  private async connectOnce(first: boolean): Promise<void> {
    const token = await this.opts.token();
    // Stopped while the token was read: no stream may open after stop() (it would hang stop).
    if (!this.running) return;
    if (!token) throw new Error('no relay token configured');
    const controller = new AbortController();
    this.abort = controller;
    const lastId = this.opts.getLastEventId();
    this.cursor = lastId;
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
      ...this.opts.presence?.headers(),
    };
    if (lastId !== null) headers['last-event-id'] = lastId;
    const watchdogMs = this.opts.watchdogMs ?? 45_000;
    let watchdog: NodeJS.Timeout | null = null;
    const stopWatchdog = () => {
      if (watchdog) clearTimeout(watchdog);
      watchdog = null;
    };
    const feedWatchdog = () => {
      stopWatchdog();
      watchdog = setTimeout(
        () => controller.abort(new Error(`no data from the relay for ${watchdogMs / 1000} s`)),
        watchdogMs,
      );
      watchdog.unref?.();
    };
    const connectedAt = Date.now();
    const markHealthy = () => {
      if (Date.now() - connectedAt >= HEALTHY_AFTER_MS) this.attempt = 0;
    };
    try {
      feedWatchdog();
      const url = this.urls[this.node] as string;
      const res = await request(`${url.replace(/\/+$/, '')}/events`, {
        headers,
        signal: controller.signal,
        headersTimeout: watchdogMs,
        bodyTimeout: 0,
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        if (res.statusCode === 401 || res.statusCode === 403) throw new TokenRejected();
        throw new RelayRefused(res.statusCode, retryAfterMs(res.headers['retry-after']));
      }
      this.update({ connected: true, node: url, error: null });
      this.opts.presence?.connected(url, lastId);
      if (!first) {
        // The relay replays what it stored, but not what never reached it: re-sync.
        stopWatchdog();
        await this.opts.onReconnectGap();
        feedWatchdog();
      }
      for await (const batch of readSse(res.body, () => {
        feedWatchdog();
        markHealthy();
      })) {
        stopWatchdog(); // applying may take a while; that is not the relay's silence
        await this.handleAll(batch);
        this.attempt = 0;
        feedWatchdog();
        if (!this.running) break;
      }
    } catch (err) {
      if (controller.signal.aborted && !this.running) return;
      const reason: unknown = controller.signal.reason;
      throw controller.signal.aborted && reason instanceof Error ? reason : err;
    } finally {
      stopWatchdog();
      this.abort = null;
      this.opts.presence?.disconnected();
      this.behindWatch.clear();
      this.update({ connected: false, behind: null, refusing: null });
    }
  }

  /** Messages read together: resets in place, runs of notifications applied in order. */
  private async handleAll(messages: SseMessage[]): Promise<void> {
    let run: RelayItem[] = [];
    const flush = async () => {
      if (run.length === 0) return;
      const items = run;
      run = [];
      await this.applyRun(items);
    };
    for (const m of messages) {
      const control = this.control(m);
      if (control) {
        await flush();
        await control();
        continue;
      }
      const item = notificationItem(m, this.cursor);
      if (!item) continue;
      run.push(item);
      this.cursor = item.id; // later duplicates in this same run are skipped too
    }
    await flush();
  }

  /** What a control message (not a notification) does, in stream order; null for the others. */
  private control(m: SseMessage): (() => unknown) | null {
    switch (m.event) {
      case 'reset':
        return () => this.reset(m.data);
      case 'replay':
        return () => this.replayed(m.data);
      case 'position':
        return () => this.started(m.id);
      case 'heartbeat':
        return () => this.heartbeat(m.data);
      case 'store':
        return () => this.storeSaid(m.data);
      case 'unavailable':
        return () => Promise.reject(new RelayCutOff(unavailableReason(m.data)));
      default:
        return null;
    }
  }

  /** A heartbeat with the node's head: "behind" when it stays ahead or its store is silent. */
  private heartbeat(data: string): void {
    const behind = this.behindWatch.heartbeat(data, this.cursor, Date.now());
    if (behind !== this.status.behind) this.update({ behind });
  }

  /** The relay refuses webhooks (why), or takes them again: shown until it says otherwise. */
  private storeSaid(data: string): void {
    const refusing = storeRefusing(data);
    if (refusing === undefined) return;
    if (refusing !== (this.status.refusing ?? null)) this.update({ refusing });
  }

  /** Where a stream opened with no id begins: the first cursor (sse-hub.ts positionFrame). */
  private started(id: string | undefined): void {
    if (this.cursor !== null || id === undefined || !RELAY_EVENT_ID.test(id)) return;
    this.cursor = id;
    this.opts.applier.start?.(id);
  }

  /** A replayed event: applied idempotently, the cursor left where it is. */
  private async replayed(data: string): Promise<void> {
    const item = parseReplayed(data);
    if (!item || !this.opts.applier.replay) return;
    await this.replayOnce(item, 0);
  }

  /**
   * One try of a replay. The relay sends a replay once (the cursor never covers it), so a
   * failure the applier calls retryable (the network, a busy database: it only throws
   * those) is tried again later, in the background, until it applies or the consumer
   * stops; it never holds or drops the stream.
   */
  private async replayOnce(item: ReplayedItem, attempt: number): Promise<void> {
    try {
      await this.opts.applier.replay?.(item);
      if (attempt > 0)
        this.opts.logger?.info({ id: item.id, attempt }, 'replayed event applied on retry');
    } catch (err) {
      if (!this.running) return;
      const delay = backoffDelay(this.policy(REPLAY_RETRY), attempt, {});
      this.opts.logger?.warn(
        { err, id: item.id, attempt, retryInMs: delay },
        'a replayed event could not be applied yet: trying again',
      );
      const t = setTimeout(() => {
        this.replayRetries.delete(t);
        if (this.running) void this.replayOnce(item, Math.min(attempt + 1, 20));
      }, delay);
      t.unref?.();
      this.replayRetries.add(t);
    }
  }

  private async reset(data: string): Promise<void> {
    this.opts.logger?.warn(
      { oldestId: resetOldestId(data) },
      'relay cannot replay everything: re-syncing',
    );
    // Whatever follows is everything the relay has, possibly with lower ids (a new log).
    this.cursor = null;
    await this.opts.onReset();
  }

  private async applyRun(items: RelayItem[]): Promise<void> {
    if (this.opts.applier.batch) {
      await this.opts.applier.batch(items);
      this.applied(items.at(-1) as RelayItem);
      return;
    }
    for (const item of items) {
      await this.opts.applier.one(item.id, item.payload, item.receivedAt);
      this.applied(item);
    }
  }

  private applied(item: RelayItem): void {
    const now = Date.now();
    this.opts.presence?.applied(item.id);
    this.update({
      lastEventId: item.id,
      lastEventAt: now,
      lagMs: item.receivedAt === null ? null : Math.max(0, now - item.receivedAt),
    });
  }
}
