/**
 * Polling, for users without a relay: a slow base interval over the whole calendar window
 * and the news feeds. The fast polls around releases are the safety net's job
 * (safety-net.ts), which runs whatever the transport.
 */
import type { Logger } from 'pino';
import type { Settings } from '../../shared/domain.js';
import type { ChangeApplier } from './applier.js';
import type { SyncCalendarApi, SyncNewsApi } from './ports.js';
import { realTimers, type Timers } from '../../shared/timers.js';

export type { Timers };

const DAY_MS = 86_400_000;

export interface PollerDeps {
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  applier: ChangeApplier;
  settings: () => Settings;
  logger: Logger;
  now?: () => number;
  timers?: Timers;
}

export class Poller {
  private baseTimer: unknown = null;
  private stopped = true;
  private readonly now: () => number;
  private readonly timers: Timers;

  constructor(private readonly deps: PollerDeps) {
    this.now = deps.now ?? Date.now;
    this.timers = deps.timers ?? realTimers;
  }

  start(): void {
    this.stopped = false;
    this.scheduleBase();
  }

  stop(): void {
    this.stopped = true;
    if (this.baseTimer) this.timers.clearTimeout(this.baseTimer);
    this.baseTimer = null;
  }

  /** One base poll: calendar window and first news page per culture. */
  async pollOnce(): Promise<void> {
    const s = this.deps.settings();
    const now = this.now();
    const from = new Date(now - DAY_MS).toISOString();
    const to = new Date(now + s.backfill.daysAhead * DAY_MS).toISOString();
    const items = await this.deps.calendar.eventDates({ from, to });
    this.deps.applier.applyEventDates(items, 'poll');
    for (const culture of s.cultures) {
      const feed = await this.deps.news.feed(culture, 1);
      this.deps.applier.applyPosts(feed.items, 'poll');
    }
  }

  private scheduleBase(): void {
    if (this.stopped) return;
    const ms = this.deps.settings().polling.baseIntervalSec * 1000;
    this.baseTimer = this.timers.setTimeout(async () => {
      try {
        await this.pollOnce();
      } catch (err) {
        // The service's health is recorded by the observed clients; the next poll retries.
        this.deps.logger.warn({ err }, 'poll failed');
      }
      this.scheduleBase();
    }, ms);
  }
}
