/**
 * The app's side of the relay: one SSE connection, resumed with Last-Event-ID after any
 * gap, notifications applied strictly in order (the cursor is persisted by `apply` in the
 * same transaction), reconnect with backoff and full jitter, and a heartbeat watchdog —
 * a connection that goes silent for 45 s is assumed dead and replaced.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request } from 'undici';
import type { Logger } from 'pino';
import type { RelayStatus } from './engine.js';

export interface RelayConsumerOptions {
  url: string;
  token: () => Promise<string | null>;
  getLastEventId: () => number | null;
  apply: (id: number, payload: unknown) => Promise<void>;
  /** Optional: apply everything already received in one go (a burst), in order. */
  applyBatch?: (items: { id: number; payload: unknown }[]) => Promise<void>;
  onReset: () => Promise<void>;
  onReconnectGap: () => Promise<void>;
  onStatus: (s: RelayStatus) => void;
  watchdogMs?: number;
  backoff?: { minMs: number; maxMs: number };
  logger?: Logger;
}

export class RelayConsumer {
  private running = false;
  private abort: AbortController | null = null;
  private status: RelayStatus = {
    connected: false,
    lastEventId: null,
    lastEventAt: null,
    lagMs: null,
    error: null,
  };
  private attempt = 0;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly opts: RelayConsumerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.status.lastEventId = this.opts.getLastEventId();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort?.abort();
    this.wake?.();
    await this.loop?.catch(() => undefined);
    this.update({ connected: false });
  }

  private update(patch: Partial<RelayStatus>): void {
    this.status = { ...this.status, ...patch };
    this.opts.onStatus(this.status);
  }

  private async run(): Promise<void> {
    let first = true;
    while (this.running) {
      let delay: number;
      try {
        const reachedStream = await this.connectOnce(first);
        first = false;
        delay = reachedStream ? 0 : this.backoff();
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        if (!this.running) break;
        this.opts.logger?.warn({ err: message }, 'relay connection lost');
        this.update({ connected: false, error: message });
        delay = this.backoff(/rejected the token/.test(message) ? 10 : 1);
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay);
        t.unref?.();
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  private backoff(factor = 1): number {
    const { minMs, maxMs } = this.opts.backoff ?? { minMs: 500, maxMs: 30_000 };
    const cap = Math.min(maxMs, minMs * 2 ** this.attempt * factor);
    this.attempt = Math.min(this.attempt + 1, 16);
    return Math.random() * cap;
  }

  /** One connection: resolves when the server ends the stream; throws on errors. */
  private async connectOnce(first: boolean): Promise<boolean> {
    const token = await this.opts.token();
    if (!token) throw new Error('no relay token configured');
    const controller = new AbortController();
    this.abort = controller;
    const lastId = this.opts.getLastEventId();
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
    };
    if (lastId !== null) headers['last-event-id'] = String(lastId);
    const watchdogMs = this.opts.watchdogMs ?? 45_000;
    let watchdog: NodeJS.Timeout | null = null;
    const feedWatchdog = () => {
      if (watchdog) clearTimeout(watchdog);
      watchdog = setTimeout(
        () => controller.abort(new Error(`no data from the relay for ${watchdogMs / 1000} s`)),
        watchdogMs,
      );
      watchdog.unref?.();
    };
    try {
      feedWatchdog();
      const res = await request(`${this.opts.url.replace(/\/+$/, '')}/events`, {
        headers,
        signal: controller.signal,
        headersTimeout: watchdogMs,
        bodyTimeout: 0,
      });
      if (res.statusCode === 401 || res.statusCode === 403) {
        await res.body.dump();
        throw new Error('the relay rejected the token');
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new Error(`the relay answered HTTP ${res.statusCode}`);
      }
      this.attempt = 0;
      this.update({ connected: true, error: null });
      // Anything may have happened while we were away and the relay can only replay what it kept.
      if (!first) await this.opts.onReconnectGap();
      const queue: EventSourceMessage[] = [];
      const parser = createParser({
        onEvent: (msg) => queue.push(msg),
        onComment: () => undefined,
      });
      for await (const chunk of res.body) {
        feedWatchdog();
        parser.feed((chunk as Buffer).toString('utf8'));
        if (queue.length > 0) await this.handleAll(queue.splice(0));
        if (!this.running) break;
      }
      return true;
    } catch (err) {
      if (controller.signal.aborted && !this.running) return true;
      const reason = controller.signal.reason as Error | undefined;
      throw reason instanceof Error ? reason : err;
    } finally {
      if (watchdog) clearTimeout(watchdog);
      this.update({ connected: false });
    }
  }

  /** Everything parsed from one chunk: resets in place, runs of notifications as batches. */
  private async handleAll(messages: EventSourceMessage[]): Promise<void> {
    if (!this.opts.applyBatch) {
      for (const m of messages) await this.handle(m);
      return;
    }
    let run: { id: number; payload: unknown }[] = [];
    const flush = async () => {
      if (run.length === 0) return;
      const items = run;
      run = [];
      await (this.opts.applyBatch as NonNullable<RelayConsumerOptions['applyBatch']>)(items);
      const last = items.at(-1) as { id: number; payload: unknown };
      this.update({ lastEventId: last.id, lastEventAt: Date.now() });
    };
    for (const m of messages) {
      if (m.event === 'reset') {
        await flush();
        await this.opts.onReset();
        continue;
      }
      const item = this.parse(m);
      if (item) run.push(item);
    }
    await flush();
  }

  /** A notification message → its id and payload, or null for anything to skip. */
  private parse(msg: EventSourceMessage): { id: number; payload: unknown } | null {
    if (msg.event !== undefined && msg.event !== 'notification' && msg.event !== 'message')
      return null;
    const id = Number(msg.id);
    if (!Number.isSafeInteger(id)) return null;
    const last = this.opts.getLastEventId();
    if (last !== null && id <= last) return null;
    try {
      return { id, payload: JSON.parse(msg.data) as unknown };
    } catch {
      return { id, payload: { type: '__invalid__', data: msg.data } };
    }
  }

  private async handle(msg: EventSourceMessage): Promise<void> {
    if (msg.event === 'reset') {
      await this.opts.onReset();
      return;
    }
    if (msg.event !== undefined && msg.event !== 'notification' && msg.event !== 'message') return;
    const id = Number(msg.id);
    if (!Number.isSafeInteger(id)) return;
    const last = this.opts.getLastEventId();
    if (last !== null && id <= last) return;
    let payload: unknown;
    try {
      payload = JSON.parse(msg.data);
    } catch {
      payload = { type: '__invalid__', data: msg.data };
    }
    await this.opts.apply(id, payload);
    const now = Date.now();
    const receivedAt =
      typeof (payload as { receivedAt?: unknown })?.receivedAt === 'number'
        ? (payload as { receivedAt: number }).receivedAt
        : null;
    this.update({
      lastEventId: id,
      lastEventAt: now,
      lagMs: receivedAt ? now - receivedAt : this.status.lagMs,
    });
  }
}
