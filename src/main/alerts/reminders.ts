/**
 * Reminder timers before each watched release. Only the next `horizonMs` is armed and the
 * plan is redone every `horizonMs`, so a sleeping laptop never depends on a day-long
 * timeout, and a timer that fires late (after sleep) checks the release is still ahead.
 */
import type { AlertRules, EventDate } from '../../shared/domain.js';
import type { AlertStore, Timers } from './port.js';

export interface ReminderPlannerOptions {
  store: Pick<AlertStore, 'upcoming'>;
  rules: () => AlertRules;
  now: () => number;
  timers: Timers;
  /** Called when a reminder is due, with the whole minutes left before the release. */
  fire: (ed: EventDate, minutesLeft: number) => void;
  onError: (err: unknown) => void;
  horizonMs?: number;
}

const HOUR = 3_600_000;
/** A reminder planned a few seconds late (a re-plan at that very moment) still counts. */
const GRACE_MS = 30_000;

export class ReminderPlanner {
  private readonly armed = new Map<string, unknown>();
  private horizonTimer: unknown = null;
  private stopped = false;

  constructor(private readonly o: ReminderPlannerOptions) {}

  /** Number of reminders currently armed (for status and tests). */
  get size(): number {
    return this.armed.size;
  }

  replan(): void {
    if (this.stopped) return;
    this.clearArmed();
    try {
      this.arm();
    } catch (err) {
      this.o.onError(err);
    }
    const horizon = this.o.horizonMs ?? HOUR;
    if (this.horizonTimer !== null) this.o.timers.clearTimeout(this.horizonTimer);
    this.horizonTimer = this.o.timers.setTimeout(() => this.replan(), horizon);
  }

  stop(): void {
    this.stopped = true;
    this.clearArmed();
    if (this.horizonTimer !== null) this.o.timers.clearTimeout(this.horizonTimer);
    this.horizonTimer = null;
  }

  private clearArmed(): void {
    this.armed.forEach((h) => this.o.timers.clearTimeout(h));
    this.armed.clear();
  }

  private arm(): void {
    const rules = this.o.rules();
    if (rules.reminderMinutes <= 0 || rules.watchedEventIds.length === 0) return;
    const now = this.o.now();
    const lead = rules.reminderMinutes * 60_000;
    // Arm a little past the horizon so nothing falls between two plans.
    const until = now + (this.o.horizonMs ?? HOUR) + 60_000;
    const upcoming = this.o.store.upcoming({
      from: new Date(now).toISOString(),
      to: new Date(until + lead).toISOString(),
      eventIds: rules.watchedEventIds,
    });
    for (const ed of upcoming) {
      const due = Date.parse(ed.dateUtc);
      if (!Number.isFinite(due) || ed.actual !== null || ed.isAllDay) continue;
      if (!rules.watchedEventIds.includes(ed.eventId)) continue;
      const at = due - lead;
      if (at < now - GRACE_MS || at > until) continue;
      const key = `${ed.id}@${ed.dateUtc}`;
      this.armed.set(
        key,
        this.o.timers.setTimeout(
          () => {
            this.armed.delete(key);
            const left = due - this.o.now();
            if (left <= 0) return; // woke up after the release: too late to remind
            this.o.fire(ed, Math.max(1, Math.round(left / 60_000)));
          },
          Math.max(0, at - now),
        ),
      );
    }
  }
}
