/**
 * Prunes the store's idempotency keys and tombstones on a schedule, when the store is idle:
 * both tables grow with every notification and delete otherwise. A prune waits for a quiet
 * moment (no write for `idleMs`) so it never lengthens a burst of releases.
 */
import type { Logger } from 'pino';
import { realTimers, type Timers } from '../../shared/timers.js';
import type { Store } from './store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface PruneScheduleOptions {
  store: Pick<Store, 'prune' | 'lastWriteAt' | 'isOpen'>;
  logger?: Pick<Logger, 'info' | 'warn'>;
  timers?: Timers;
  now?: () => number;
  /** Between two prunes (default 6 hours). */
  everyMs?: number;
  /**
   * Keys and tombstones younger than this stay (default 30 days): far longer than any
   * retried webhook, relay replay (7 days by default) or backfill page can arrive late.
   */
  keepMs?: number;
  /** The store counts as idle after this long without a write (default 1 minute). */
  idleMs?: number;
}

export class PruneScheduler {
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly everyMs: number;
  private readonly keepMs: number;
  private readonly idleMs: number;
  private handle: unknown = null;

  constructor(private readonly opts: PruneScheduleOptions) {
    this.timers = opts.timers ?? realTimers;
    this.now = opts.now ?? Date.now;
    this.everyMs = opts.everyMs ?? 6 * HOUR;
    this.keepMs = opts.keepMs ?? 30 * DAY;
    this.idleMs = opts.idleMs ?? 60_000;
  }

  /** The first prune comes once the store has been idle (soon after start-up). */
  start(): this {
    if (this.handle === null) this.schedule(this.idleMs);
    return this;
  }

  stop(): void {
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
  }

  private schedule(ms: number): void {
    this.handle = this.timers.setTimeout(() => this.tick(), ms);
  }

  private tick(): void {
    this.handle = null;
    const { store, logger } = this.opts;
    if (!store.isOpen()) return; // closed under us: nothing left to prune
    const quietFor = this.now() - store.lastWriteAt();
    if (quietFor < this.idleMs) {
      this.schedule(this.idleMs - quietFor);
      return;
    }
    try {
      const removed = store.prune({ olderThanMs: this.keepMs });
      if (removed.notifications + removed.tombstones > 0) logger?.info(removed, 'store pruned');
    } catch (err) {
      logger?.warn({ err }, 'store prune failed; trying again later');
    }
    this.schedule(this.everyMs);
  }
}
