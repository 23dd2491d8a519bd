/**
 * The alerts engine. `recordForChange` runs inside the SQLite transaction that applies a
 * change, so an alert is recorded exactly once (its dedup key is unique) whatever the
 * source and across restarts. `dispatch` then turns new records into native
 * notifications: the first at once, the rest of a burst grouped, a few a minute at most,
 * silent in quiet hours, none while paused (history keeps everything).
 */
import type {
  AlertKind,
  AlertRecord,
  AlertRules,
  AlertTarget,
  DomainChange,
  EventDate,
  NativeNotification,
} from '../../shared/domain.js';
import type { NewAlert } from '../store/store.js';
import {
  addedText,
  newsText,
  releaseText,
  reminderText,
  removedText,
  rescheduledText,
  revisedText,
  type AlertText,
} from './message.js';
import { inQuietHours, matchesEventDate, matchesPost } from './rules.js';

export interface AlertStore {
  insertAlert(a: NewAlert): AlertRecord | null;
  upcoming(q: {
    from: string;
    to: string;
    minVolatility?: string;
    eventIds?: string[];
  }): EventDate[];
}

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

export interface AlertsEngineOptions {
  store: AlertStore;
  rules: () => AlertRules;
  timeZone: () => string;
  hourCycle?: () => 'h12' | 'h23';
  sink: (n: NativeNotification) => void;
  onAlert?: (a: AlertRecord) => void;
  now?: () => number;
  timers?: Timers;
  /** Alerts within this window of the first become one grouped notification. */
  coalesceMs?: number;
  maxPerMinute?: number;
  /** A backfilled print older than this is history, not news. */
  staleReleaseMs?: number;
}

const HOUR = 3_600_000;

export class AlertsEngine {
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly coalesceMs: number;
  private readonly maxPerMinute: number;
  private readonly staleMs: number;
  private pending: AlertRecord[] = [];
  private flushTimer: unknown = null;
  private readonly sent: number[] = [];
  private readonly reminders = new Map<string, unknown>();
  private horizonTimer: unknown = null;
  private stopped = false;

  constructor(private readonly opts: AlertsEngineOptions) {
    this.now = opts.now ?? Date.now;
    this.timers = opts.timers ?? realTimers;
    this.coalesceMs = opts.coalesceMs ?? 1_500;
    this.maxPerMinute = opts.maxPerMinute ?? 4;
    this.staleMs = opts.staleReleaseMs ?? 10 * 60_000;
  }

  /** Decide and record (deduplicated). Synchronous: call inside the apply transaction. */
  recordForChange(change: DomainChange): AlertRecord[] {
    const alert = this.alertFor(change);
    if (!alert) return [];
    const record = this.opts.store.insertAlert({ ...alert, createdAt: this.now() });
    if (!record) return [];
    this.opts.onAlert?.(record);
    if (
      change.kind === 'rescheduled' ||
      change.kind === 'eventDateAdded' ||
      change.kind === 'eventDateRemoved'
    ) {
      queueMicrotask(() => this.rescheduleReminders());
    }
    return [record];
  }

  /** After commit: coalesce, rate-limit and deliver natively. */
  dispatch(records: AlertRecord[]): void {
    if (records.length === 0 || this.stopped) return;
    this.pending.push(...records);
    if (this.flushTimer) return;
    const idle = this.sent.length === 0 || this.now() - (this.sent.at(-1) ?? 0) > this.coalesceMs;
    if (idle && this.canSend()) {
      // Leading edge: the first alert of a burst goes out at once.
      this.flush();
      return;
    }
    this.scheduleFlush(this.coalesceMs);
  }

  /** Re-plan reminder timers for watched releases in the next 24 h. */
  rescheduleReminders(): void {
    if (this.stopped) return;
    this.reminders.forEach((h) => this.timers.clearTimeout(h));
    this.reminders.clear();
    const rules = this.opts.rules();
    if (rules.reminderMinutes > 0 && rules.watchedEventIds.length > 0) {
      const now = this.now();
      const lead = rules.reminderMinutes * 60_000;
      const upcoming = this.opts.store.upcoming({
        from: new Date(now).toISOString(),
        to: new Date(now + 24 * HOUR).toISOString(),
        eventIds: rules.watchedEventIds,
      });
      for (const ed of upcoming) {
        if (ed.actual !== null) continue;
        const at = Date.parse(ed.dateUtc) - lead;
        if (at < now - 30_000) continue;
        const key = `${ed.id}@${ed.dateUtc}`;
        this.reminders.set(
          key,
          this.timers.setTimeout(
            () => this.fireReminder(ed, rules.reminderMinutes),
            Math.max(0, at - now),
          ),
        );
      }
    }
    if (this.horizonTimer) this.timers.clearTimeout(this.horizonTimer);
    this.horizonTimer = this.timers.setTimeout(() => this.rescheduleReminders(), HOUR);
  }

  stop(): void {
    this.stopped = true;
    this.reminders.forEach((h) => this.timers.clearTimeout(h));
    this.reminders.clear();
    if (this.flushTimer) this.timers.clearTimeout(this.flushTimer);
    if (this.horizonTimer) this.timers.clearTimeout(this.horizonTimer);
  }

  private fireReminder(ed: EventDate, minutes: number): void {
    const text = reminderText(ed, minutes);
    const record = this.opts.store.insertAlert({
      dedupKey: `reminder:${ed.id}:${ed.dateUtc}`,
      kind: 'reminder',
      ...text,
      createdAt: this.now(),
      target: { type: 'eventDate', eventDateId: ed.id, eventId: ed.eventId },
    });
    if (!record) return;
    this.opts.onAlert?.(record);
    this.dispatch([record]);
  }

  private alertFor(
    change: DomainChange,
  ): (AlertText & { dedupKey: string; kind: AlertKind; target: AlertTarget }) | null {
    const rules = this.opts.rules();
    const zone = this.opts.timeZone();
    const hc = this.opts.hourCycle?.() ?? 'h23';
    const target = (ed: EventDate): AlertTarget => ({
      type: 'eventDate',
      eventDateId: ed.id,
      eventId: ed.eventId,
    });
    switch (change.kind) {
      case 'released': {
        const ed = change.eventDate;
        if (!matchesEventDate(ed, rules, 'released')) return null;
        if (change.source === 'backfill' && this.now() - Date.parse(ed.dateUtc) > this.staleMs)
          return null;
        return {
          ...releaseText(ed),
          dedupKey: `released:${ed.id}`,
          kind: 'released',
          target: target(ed),
        };
      }
      case 'revised': {
        const ed = change.eventDate;
        if (!matchesEventDate(ed, rules, 'revised')) return null;
        return {
          ...revisedText(ed, change.previousRevised),
          dedupKey: `revised:${ed.id}:${ed.revised}`,
          kind: 'revised',
          target: target(ed),
        };
      }
      case 'rescheduled': {
        const ed = change.eventDate;
        if (!matchesEventDate(ed, rules, 'rescheduled')) return null;
        return {
          ...rescheduledText(ed, change.fromDateUtc, zone, hc),
          dedupKey: `rescheduled:${ed.id}:${ed.dateUtc}`,
          kind: 'rescheduled',
          target: target(ed),
        };
      }
      case 'eventDateAdded': {
        const ed = change.eventDate;
        if (change.source === 'backfill' || !matchesEventDate(ed, rules, 'added')) return null;
        return {
          ...addedText(ed, zone, hc),
          dedupKey: `added:${ed.id}`,
          kind: 'added',
          target: target(ed),
        };
      }
      case 'eventDateRemoved': {
        const ed = change.eventDate;
        if (!ed || !matchesEventDate(ed, rules, 'removed')) return null;
        return {
          ...removedText(ed, change.eventDateId),
          dedupKey: `removed:${change.eventDateId}`,
          kind: 'removed',
          target: { type: 'alerts' },
        };
      }
      case 'postPublished': {
        if (change.source === 'backfill' || !matchesPost(change.post, rules)) return null;
        const p = change.post;
        return {
          ...newsText(p),
          dedupKey: `news:${p.culture}:${p.id}`,
          kind: 'news',
          target: { type: 'post', postId: p.id, culture: p.culture },
        };
      }
      default:
        return null;
    }
  }

  private canSend(): boolean {
    const cutoff = this.now() - 60_000;
    while (this.sent.length > 0 && (this.sent[0] as number) < cutoff) this.sent.shift();
    return this.sent.length < this.maxPerMinute;
  }

  private scheduleFlush(ms: number): void {
    this.flushTimer = this.timers.setTimeout(() => {
      this.flushTimer = null;
      if (this.canSend()) this.flush();
      else this.scheduleFlush(Math.max(250, (this.sent[0] ?? this.now()) + 60_000 - this.now()));
    }, ms);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const rules = this.opts.rules();
    if (rules.pausedUntil !== null && rules.pausedUntil > this.now()) return;
    this.sent.push(this.now());
    const silent = inQuietHours(
      this.now(),
      rules,
      this.opts.timeZone() === 'system'
        ? Intl.DateTimeFormat().resolvedOptions().timeZone
        : this.opts.timeZone(),
    );
    const ids = batch.map((a) => a.id);
    if (batch.length === 1) {
      const a = batch[0] as AlertRecord;
      this.opts.sink({ title: a.title, body: a.body, target: a.target, alertIds: ids, silent });
      return;
    }
    const lines = batch.slice(0, 8).map((a) => `${a.title}: ${a.body}`);
    if (batch.length > 8) lines.push(`…and ${batch.length - 8} more`);
    const kinds = new Set(batch.map((a) => a.kind));
    const noun =
      kinds.size === 1 && kinds.has('released')
        ? 'releases'
        : kinds.size === 1 && kinds.has('news')
          ? 'news alerts'
          : 'alerts';
    this.opts.sink({
      title: `${batch.length} ${noun}`,
      body: lines.join('\n'),
      target: { type: 'alerts' },
      alertIds: ids,
      silent,
    });
  }
}
