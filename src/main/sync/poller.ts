/**
 * Polling, for users without a relay: a slow base interval over the calendar window and
 * the news feeds, plus a burst of fast polls around the scheduled time of every upcoming
 * release the user would be alerted about, so actual values arrive within seconds.
 */
import type { Logger } from 'pino';
import type { AlertRules, EventDate, Settings } from '../../shared/domain.js';
import { atLeastVolatility } from '../../shared/format.js';
import type { ChangeApplier } from './applier.js';
import type { SyncCalendarApi, SyncNewsApi, SyncStore } from './ports.js';

const DAY_MS = 86_400_000;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface PollerDeps {
  store: SyncStore;
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  applier: ChangeApplier;
  settings: () => Settings;
  logger: Logger;
  /** Called after each successful poll, and with the error of a failed one. */
  onResult: (err: unknown | null) => void;
  now?: () => number;
  timers?: Timers;
}

/** Whether a release should get a burst: the same test the alerts use, minus change kinds. */
export function wantsBurst(ed: EventDate, rules: AlertRules): boolean {
  if (ed.actual !== null) return false;
  if (rules.watchedEventIds.includes(ed.eventId)) return true;
  return (
    atLeastVolatility(ed.volatility, rules.minVolatility) &&
    (rules.countries.length === 0 || rules.countries.includes(ed.countryCode)) &&
    (rules.currencies.length === 0 || rules.currencies.includes(ed.currencyCode))
  );
}

export class Poller {
  private baseTimer: unknown = null;
  private readonly bursts = new Map<string, unknown>();
  private stopped = true;
  private readonly now: () => number;
  private readonly timers: Timers;

  constructor(private readonly deps: PollerDeps) {
    this.now = deps.now ?? Date.now;
    this.timers = deps.timers ?? realTimers;
  }

  start(): void {
    this.stopped = false;
    this.planBursts();
    this.scheduleBase();
  }

  stop(): void {
    this.stopped = true;
    if (this.baseTimer) this.timers.clearTimeout(this.baseTimer);
    this.baseTimer = null;
    this.bursts.forEach((h) => this.timers.clearTimeout(h));
    this.bursts.clear();
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

  /** Re-plan bursts (after a rules change, a reschedule, or each base poll). */
  planBursts(): void {
    if (this.stopped) return;
    const s = this.deps.settings();
    const now = this.now();
    const horizon = now + (s.polling.baseIntervalSec + s.polling.burstLeadSec) * 1000 + 60_000;
    const upcoming = this.deps.store
      .listEventDates({
        from: new Date(now - s.polling.burstTimeoutSec * 1000).toISOString(),
        to: new Date(horizon).toISOString(),
      })
      .filter((ed) => wantsBurst(ed, s.alertRules));
    const times = new Set(upcoming.map((ed) => Date.parse(ed.dateUtc)));
    for (const [key, handle] of this.bursts) {
      if (!times.has(Number(key))) {
        this.timers.clearTimeout(handle);
        this.bursts.delete(key);
      }
    }
    for (const at of times) {
      const key = String(at);
      if (this.bursts.has(key)) continue;
      const startIn = Math.max(0, at - s.polling.burstLeadSec * 1000 - now);
      this.bursts.set(
        key,
        this.timers.setTimeout(() => void this.burst(at), startIn),
      );
    }
  }

  /** Poll the minute around `at` quickly until every wanted release there has printed. */
  private async burst(at: number): Promise<void> {
    const key = String(at);
    const s = this.deps.settings();
    const deadline = at + s.polling.burstTimeoutSec * 1000;
    const from = new Date(at - 60_000).toISOString();
    const to = new Date(at + 60_000).toISOString();
    try {
      const items = await this.deps.calendar.eventDates({ from, to });
      this.deps.applier.applyEventDates(items, 'poll');
      this.deps.onResult(null);
    } catch (err) {
      this.deps.onResult(err);
    }
    if (this.stopped) return;
    const pending = this.deps.store
      .listEventDates({ from, to })
      .filter((ed) => Date.parse(ed.dateUtc) === at && wantsBurst(ed, s.alertRules));
    if (pending.length === 0 || this.now() >= deadline) {
      this.bursts.delete(key);
      return;
    }
    this.bursts.set(
      key,
      this.timers.setTimeout(() => void this.burst(at), s.polling.burstIntervalSec * 1000),
    );
  }

  private scheduleBase(): void {
    if (this.stopped) return;
    const ms = this.deps.settings().polling.baseIntervalSec * 1000;
    this.baseTimer = this.timers.setTimeout(async () => {
      try {
        await this.pollOnce();
        this.deps.onResult(null);
      } catch (err) {
        this.deps.logger.warn({ err: String(err) }, 'poll failed');
        this.deps.onResult(err);
      }
      this.planBursts();
      this.scheduleBase();
    }, ms);
  }
}
