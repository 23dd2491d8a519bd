/**
 * The alerts engine: decides, records and delivers alerts.
 *
 * - `recordForChange` is synchronous and runs inside the SQLite transaction that applies
 *   a change, so the alert is recorded atomically with it: its dedup key is unique in the
 *   store, so the same fact from the relay, a poll, a backfill or after a restart alerts
 *   once, and a crash cannot lose or double it.
 * - `dispatch` runs after the commit (the applier's `onDidCommit`): each new record is
 *   announced (`onDidRecord`, the window's history) and delivered (`onDidNotify`: grouped,
 *   rate-limited, silent in quiet hours). A transaction that rolls back announces nothing.
 * - Paused (`rules.pausedUntil` in the future): alerts are still recorded in the history
 *   (unread), so nothing is missed, but no native notification is shown.
 * - Reminders fire `reminderMinutes` before each watched release and are recorded and
 *   delivered like any other alert.
 */
import type {
  AlertReceipt,
  AlertRecord,
  AlertRules,
  DomainChange,
  EventDate,
  NativeNotification,
} from '../../shared/domain.js';
import { decideAlert, dedupKeys, newPrint, type AlertDecision } from './decide.js';
import { Delivery, type DeliveryItem } from './delivery.js';
import { reminderText } from './message.js';
import { realTimers, type AlertStore, type Timers } from './port.js';
import { ReminderPlanner } from './reminders.js';
import { messageOf } from '../../shared/error-message.js';
import { Emitter, type Event } from '../../shared/event.js';

export type { AlertStore, NewAlert, Timers, UpcomingQuery } from './port.js';

/** What the apply path knows about a change's trip, beyond its source. */
export interface ChangeHop {
  /** When the relay stored the webhook that carried it (relay path only). */
  relayReceivedAt?: number | null;
}

export interface AlertsEngineOptions {
  store: AlertStore;
  rules: () => AlertRules;
  /** The app's display zone: IANA name or "system". */
  timeZone: () => string;
  hourCycle?: () => 'h12' | 'h23';
  /** A listener or store failure outside the apply path; never thrown. */
  onError?: (err: unknown) => void;
  now?: () => number;
  timers?: Timers;
  /** After a notification, alerts within this long are grouped into the next one. */
  coalesceMs?: number;
  /**
   * The first alert after a calm waits this long for others printed at the same moment
   * (150 ms by default: NFP and the unemployment rate arrive as separate webhooks within
   * it and make one notification, at a cost a trader does not notice). A print of the same
   * moment as the last notification's, arriving later, is not held for `coalesceMs`
   * either: it goes out after this short wait too (delivery.ts).
   */
  settleMs?: number;
  maxPerMinute?: number;
  /** A backfilled revision or correction older than this is history, not news. */
  staleReleaseMs?: number;
  /** Prints before this (unix ms) predate the app watching the calendar: never alerted. */
  coveredSince?: () => number | null;
  /** How far ahead reminder timers are armed; the plan is redone this often. */
  reminderHorizonMs?: number;
}

/** Prints arriving this close together reach the trader as one notification. */
const SAME_MOMENT_MS = 150;

/** Bounded so alerts recorded but never dispatched cannot grow memory. */
const MAX_META = 2_000;

const REPLAN_KINDS = new Set<DomainChange['kind']>([
  'rescheduled',
  'eventDateAdded',
  'eventDateRemoved',
  'released',
]);

export class AlertsEngine {
  private readonly now: () => number;
  private readonly hourCycle: () => 'h12' | 'h23';
  private readonly onError: (err: unknown) => void;
  private readonly staleMs: number;
  private readonly delivery: Delivery;
  private readonly reminders: ReminderPlanner;
  /** Grouping hints (country, time) of recorded alerts awaiting dispatch. */
  private readonly meta = new Map<number, Omit<DeliveryItem, 'record'>>();
  private replanQueued = false;
  private stopped = false;
  private readonly didRecord: Emitter<AlertRecord>;
  /** Each alert recorded and committed (the window's history), once, after its commit. */
  readonly onDidRecord: Event<AlertRecord>;
  /** Each notification to show now (native and in the window), once. */
  readonly onDidNotify: Event<NativeNotification>;

  constructor(private readonly opts: AlertsEngineOptions) {
    this.now = opts.now ?? Date.now;
    this.hourCycle = opts.hourCycle ?? (() => 'h23');
    this.onError = opts.onError ?? ((err) => console.warn('alerts:', messageOf(err)));
    this.staleMs = opts.staleReleaseMs ?? 10 * 60_000;
    this.didRecord = new Emitter<AlertRecord>(this.onError);
    this.onDidRecord = this.didRecord.event;
    const timers = opts.timers ?? realTimers;
    this.delivery = new Delivery({
      rules: opts.rules,
      timeZone: opts.timeZone,
      hourCycle: this.hourCycle,
      now: this.now,
      timers,
      coalesceMs: opts.coalesceMs ?? 1_500,
      settleMs: opts.settleMs ?? SAME_MOMENT_MS,
      maxPerMinute: opts.maxPerMinute ?? 4,
      onError: this.onError,
    });
    // Its receipts are stamped as it is sent and as a surface acknowledges it
    // (acknowledgements.ts), not here: going out is not being seen.
    this.onDidNotify = this.delivery.onDidSend;
    this.reminders = new ReminderPlanner({
      store: opts.store,
      rules: opts.rules,
      now: this.now,
      timers,
      fire: (ed, minutes) => this.fireReminder(ed, minutes),
      onError: this.onError,
      ...(opts.reminderHorizonMs ? { horizonMs: opts.reminderHorizonMs } : {}),
    });
  }

  /**
   * Decide and record (deduplicated). Synchronous: call inside the apply transaction.
   * Returns the newly recorded alerts (empty when none is due or it was recorded before).
   */
  recordForChange(change: DomainChange, hop: ChangeHop = {}): AlertRecord[] {
    if (this.touchesWatched(change)) this.queueReplan();
    let decision;
    try {
      decision = decideAlert(change, {
        rules: this.opts.rules(),
        now: this.now(),
        staleMs: this.staleMs,
        coveredSince: this.opts.coveredSince?.() ?? null,
      });
    } catch (err) {
      // A bad record must not block applying the change itself.
      this.onError(err);
      return [];
    }
    if (!decision) return [];
    const { countryCode, dateUtc, volatility, print, replaces, onlyReplaces, ...alert } = decision;
    const now = this.now();
    const receipt = print ? receiptOf(change, decision, hop, now) : null;
    const next = { ...alert, createdAt: now, late: print?.late === true, receipt };
    // Store errors propagate: the transaction rolls back and the change is retried.
    const replaced = replaces ? (this.opts.store.replaceAlert?.(replaces, next) ?? null) : null;
    const record = replaced ?? (onlyReplaces ? null : this.opts.store.insertAlert(next));
    if (!record) return [];
    this.remember(record.id, { countryCode, dateUtc, volatility });
    return [record];
  }

  /** Is this print news (not history) by the one decision (decide.ts `newPrint`)? */
  newPrintOf(ed: EventDate): { at: number; late: boolean } | null {
    return newPrint(ed, {
      rules: this.opts.rules(),
      now: this.now(),
      staleMs: this.staleMs,
      coveredSince: this.opts.coveredSince?.() ?? null,
    });
  }

  /** After commit (never inside the transaction): announce, group, rate-limit, deliver. */
  dispatch(records: AlertRecord[]): void {
    if (this.stopped) return;
    const items = records.map((record) => {
      const hints = this.meta.get(record.id);
      this.meta.delete(record.id);
      return { record, ...hints };
    });
    for (const { record } of items) this.didRecord.fire(record);
    this.delivery.push(items);
  }

  /** A notice of another producer (news windows) sent under the same rules (delivery.ts). */
  notice(n: NativeNotification): void {
    if (!this.stopped) this.delivery.notice(n);
  }

  /** Re-plan reminder timers (on start, on rules changes; changes do it themselves). */
  rescheduleReminders(): void {
    if (!this.stopped) this.reminders.replan();
  }

  /** Clears every timer; nothing is delivered afterwards. */
  stop(): void {
    this.stopped = true;
    this.reminders.stop();
    this.delivery.stop();
    this.meta.clear();
  }

  private touchesWatched(change: DomainChange): boolean {
    if (!REPLAN_KINDS.has(change.kind)) return false;
    const eventId =
      change.kind === 'eventDateRemoved'
        ? change.eventId
        : 'eventDate' in change && change.eventDate
          ? change.eventDate.eventId
          : null;
    return eventId !== null && this.opts.rules().watchedEventIds.includes(eventId);
  }

  /** After the transaction commits (a microtask runs after the synchronous apply). */
  private queueReplan(): void {
    if (this.replanQueued) return;
    this.replanQueued = true;
    queueMicrotask(() => {
      this.replanQueued = false;
      this.rescheduleReminders();
    });
  }

  private fireReminder(ed: EventDate, minutes: number): void {
    if (this.stopped) return;
    try {
      const record = this.opts.store.insertAlert({
        ...reminderText(ed, minutes),
        dedupKey: dedupKeys.reminder(ed.id, ed.dateUtc),
        kind: 'reminder',
        createdAt: this.now(),
        target: { type: 'eventDate', eventDateId: ed.id, eventId: ed.eventId },
      });
      if (!record) return;
      this.didRecord.fire(record);
      this.delivery.push([
        { record, countryCode: ed.countryCode, dateUtc: ed.dateUtc, volatility: ed.volatility },
      ]);
    } catch (err) {
      this.onError(err);
    }
  }

  private remember(id: number, hints: Omit<DeliveryItem, 'record'>): void {
    if (this.meta.size >= MAX_META) {
      const oldest = this.meta.keys().next();
      if (!oldest.done) this.meta.delete(oldest.value);
    }
    this.meta.set(id, hints);
  }
}

function receiptOf(
  change: DomainChange,
  decision: AlertDecision,
  hop: ChangeHop,
  appliedAt: number,
): AlertReceipt | null {
  if (!('eventDate' in change) || !change.eventDate) return null;
  const ed = change.eventDate;
  const scheduled = Date.parse(ed.dateUtc);
  return {
    path: change.source,
    scheduledAt: Number.isFinite(scheduled) ? scheduled : null,
    lastUpdatedAt: ed.lastUpdated > 0 ? ed.lastUpdated * 1000 : null,
    printAt: decision.print?.at ?? null,
    relayReceivedAt: change.source === 'relay' ? (hop.relayReceivedAt ?? null) : null,
    appliedAt,
    shownAt: null,
  };
}
