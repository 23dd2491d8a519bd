/**
 * From recorded alerts to native notifications: a burst becomes one grouped notification,
 * at most `maxPerMinute` go out (the excess waits and joins the next group — the history
 * keeps every alert regardless), quiet hours make them silent, a pause makes none.
 */
import {
  VOLATILITIES,
  type AlertRecord,
  type AlertRules,
  type NativeNotification,
  type Volatility,
} from '../../shared/domain.js';
import { Emitter } from '../../shared/event.js';
import { volatilityRank } from '../../shared/format.js';
import { groupText, type GroupItem } from './message.js';
import type { Timers } from './port.js';
import { inQuietHours } from './rules.js';
import { renderAlertTimes } from './zone.js';

export interface DeliveryItem {
  record: AlertRecord;
  countryCode?: string;
  dateUtc?: string;
  /** The service's impact, as given (unknown values count as none). */
  volatility?: string;
}

export interface DeliveryOptions {
  rules: () => AlertRules;
  timeZone: () => string;
  hourCycle: () => 'h12' | 'h23';
  now: () => number;
  timers: Timers;
  /** After a notification, alerts within this long are held and sent together. */
  coalesceMs: number;
  /**
   * The first alert after a calm waits this long for companions (0: the end of its batch);
   * so does a print of the same moment as the last notification's, which is not held.
   */
  settleMs: number;
  maxPerMinute: number;
  onError: (err: unknown) => void;
}

const MINUTE = 60_000;

export function isPaused(rules: AlertRules, now: number): boolean {
  return rules.pausedUntil !== null && rules.pausedUntil > now;
}

export class Delivery {
  private pending: DeliveryItem[] = [];
  private timer: unknown = null;
  /** When each notification of the last minute went out (the rate limit). */
  private sentAt: number[] = [];
  /** When the last notification went out (the grouping window). */
  private lastSentAt: number | null = null;
  /** The release times (prints only) of the last notification sent. */
  private lastSentMoments = new Set<string>();
  private readonly didSend: Emitter<NativeNotification>;
  /** A notification goes out: each listener hears it once; one failing spares the others. */
  readonly onDidSend;

  constructor(private readonly o: DeliveryOptions) {
    this.didSend = new Emitter<NativeNotification>(o.onError);
    this.onDidSend = this.didSend.event;
  }

  push(items: DeliveryItem[]): void {
    if (items.length === 0) return;
    if (isPaused(this.o.rules(), this.o.now())) return;
    this.pending.push(...items);
    if (this.timer !== null) return; // a flush is planned; these join it
    const now = this.o.now();
    const last = this.lastSentAt;
    // A release printed at the same moment as the one just sent (NFP, then the unemployment
    // rate of 13:30:00) is read together with it: not held for the grouping window.
    const calm = last === null || now - last >= this.o.coalesceMs;
    const wait =
      calm || this.sameMomentAsLastSent(items) ? this.o.settleMs : last + this.o.coalesceMs - now;
    this.schedule(wait);
  }

  /**
   * A notice that is no alert record (a news window opening or closing): the trader's
   * rules apply to it as to every alert — none while paused, silent in quiet hours, and it
   * counts toward the per-minute limit (past it, silent: a window's edge is news only now,
   * so it is not held for later). Sent at once, not grouped.
   */
  notice(n: NativeNotification): void {
    const now = this.o.now();
    const rules = this.o.rules();
    if (isPaused(rules, now)) return;
    const overLimit = this.atRateLimit(now);
    this.sentAt.push(now);
    const silent = n.silent || overLimit || inQuietHours(now, rules, this.o.timeZone());
    try {
      this.didSend.fire({ ...n, silent });
    } catch (err) {
      this.o.onError(err);
    }
  }

  /** Whether the last minute already holds `maxPerMinute` sends (older ones forgotten). */
  private atRateLimit(now: number): boolean {
    this.sentAt = this.sentAt.filter((t) => t > now - MINUTE);
    return this.sentAt.length >= this.o.maxPerMinute;
  }

  private sameMomentAsLastSent(items: DeliveryItem[]): boolean {
    return items.every(
      (i) => i.record.kind === 'released' && i.dateUtc && this.lastSentMoments.has(i.dateUtc),
    );
  }

  stop(): void {
    if (this.timer !== null) this.o.timers.clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
    this.didSend.dispose();
  }

  private schedule(ms: number): void {
    this.timer = this.o.timers.setTimeout(() => {
      this.timer = null;
      this.tryFlush();
    }, ms);
  }

  private tryFlush(): void {
    const now = this.o.now();
    const atLimit = this.atRateLimit(now);
    // The rest of a moment the trader has just heard of (within the grouping window) is not
    // more noise: not rate-limited.
    const completesMoment =
      this.lastSentAt !== null &&
      now - this.lastSentAt < this.o.coalesceMs + this.o.settleMs &&
      this.sameMomentAsLastSent(this.pending);
    if (!completesMoment && atLimit) {
      // Over the limit: wait until the oldest send leaves the window, then send as a group.
      this.schedule(Math.max(250, (this.sentAt[0] ?? now) + MINUTE - now));
      return;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const rules = this.o.rules();
    if (isPaused(rules, now)) return;
    if (!completesMoment) this.sentAt.push(now);
    this.lastSentAt = now;
    this.lastSentMoments = new Set(
      batch
        .filter((i) => i.record.kind === 'released' && i.dateUtc)
        .map((i) => i.dateUtc as string),
    );
    // Late prints (an outage, a wake from sleep) are news, but not worth a sound each.
    const silent =
      inQuietHours(now, rules, this.o.timeZone()) || batch.every((i) => i.record.late === true);
    try {
      this.didSend.fire(this.notificationOf(batch, silent));
    } catch (err) {
      this.o.onError(err);
    }
  }

  private notificationOf(batch: DeliveryItem[], silent: boolean): NativeNotification {
    const alertIds = batch.map((i) => i.record.id);
    const volatility = highest(batch);
    const level = volatility ? { volatility } : {};
    const zone = this.o.timeZone();
    const hourCycle = this.o.hourCycle();
    const text = (t: string) => renderAlertTimes(t, zone, hourCycle);
    const only = batch.length === 1 ? batch[0] : undefined;
    if (only) {
      const { title, body, target } = only.record;
      return { title: text(title), body: text(body), target, alertIds, silent, ...level };
    }
    const items: GroupItem[] = batch.map((i) => ({
      kind: i.record.kind,
      title: text(i.record.title),
      body: text(i.record.body),
      countryCode: i.countryCode,
      dateUtc: i.dateUtc,
    }));
    return {
      ...groupText(items, zone, hourCycle),
      target: { type: 'alerts' },
      alertIds,
      silent,
      ...level,
    };
  }
}

/** The highest impact among a batch's releases (undefined for news only). */
function highest(batch: DeliveryItem[]): Volatility | undefined {
  const ranks = batch
    .filter((i) => i.volatility !== undefined)
    .map((i) => volatilityRank(i.volatility));
  if (ranks.length === 0) return undefined;
  return VOLATILITIES[Math.max(0, ...ranks)];
}
