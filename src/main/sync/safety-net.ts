/**
 * The safety net: webhooks are the fast path, never the only one. Whatever the transport
 * (relay, direct webhooks, polling) it
 *  - polls every release the alert rules would alert on (and every watched one) from
 *    `burstLeadSec` before its time until it has its actual: every `burstIntervalSec` for
 *    `burstTimeoutSec`, then every `slowMs` (15 s) until `giveUpMs` (30 min) after its
 *    time — one request covers all the releases due together;
 *  - re-reads the near window (the next hour) every `nearEveryMs` (1 min), so a release
 *    whose `*_created` webhook was lost is known before it prints;
 *  - judges the webhooks: a change it finds first must be confirmed by a webhook within
 *    `webhookGraceMs` (10 s), or webhooks are "late" and the status says so.
 * Everything it finds goes through the one idempotent applier: a print found by both the
 * webhook and the poll alerts once.
 */
import type { Logger } from 'pino';
import type { DomainChange, EventDate, Settings } from '../../shared/domain.js';
import { matchesEventDate } from '../alerts/rules.js';
import { backoffDelay, retryAfterOf } from '../../node/backoff.js';
import type { ChangeApplier } from './applier.js';
import type { SyncCalendarApi, SyncStore } from './ports.js';
import { realTimers, type Timers } from '../../shared/timers.js';

/** The net's periods; users keep the defaults, tests and benchmarks shorten them. */
export interface SafetyNetTuning {
  /** Cadence after the fast phase, until giveUpMs after the release time. */
  slowMs: number;
  giveUpMs: number;
  /** How often the near window (the next hour) is re-read. */
  nearEveryMs: number;
  /** How long a webhook may trail a change the net found first. */
  webhookGraceMs: number;
  /** While the service fails, retry at most this far apart (recovery is noticed within it). */
  maxBackoffMs: number;
}

export const DEFAULT_SAFETY_NET: SafetyNetTuning = {
  slowMs: 15_000,
  giveUpMs: 30 * 60_000,
  nearEveryMs: 60_000,
  webhookGraceMs: 10_000,
  maxBackoffMs: 8_000,
};
/** The near window re-read reaches this far ahead (and a little behind, for late prints). */
const NEAR_AHEAD_MS = 75 * 60_000;
const NEAR_BEHIND_MS = 15 * 60_000;

export interface SafetyNetDeps {
  store: Pick<SyncStore, 'listEventDates'>;
  calendar: Pick<SyncCalendarApi, 'eventDates'>;
  applier: Pick<ChangeApplier, 'applyEventDates'>;
  settings: () => Settings;
  logger: Logger;
  /** Whether webhooks should deliver what the net finds (relay or direct webhooks). */
  expectWebhooks: () => boolean;
  /** Webhooks missing since (unix ms), or null when they deliver again. */
  onWebhooksLate: (since: number | null) => void;
  tuning?: Partial<SafetyNetTuning>;
  now?: () => number;
  timers?: Timers;
  random?: () => number;
}

/** Releases the net watches: not printed yet, and alertable or watched. */
export function needsWatching(ed: EventDate, settings: Settings): boolean {
  if (ed.actual !== null) return false;
  return matchesEventDate(ed, settings.alertRules, 'released');
}

export class SafetyNet {
  private timer: unknown = null;
  /** Fires when the earliest grace runs out: judged then, not at the next round. */
  private judgeTimer: unknown = null;
  private running = false;
  private busy: Promise<void> | null = null;
  private nextReleasePollAt = 0;
  private nextNearAt = 0;
  private failures = 0;
  private retryHintMs: number | null = null;
  /** Changes the net found first, waiting for their webhook: event-date id → deadline. */
  private readonly expected = new Map<string, { lastUpdated: number; deadline: number }>();
  private lateSince: number | null = null;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly tuning: SafetyNetTuning;

  constructor(private readonly deps: SafetyNetDeps) {
    this.tuning = { ...DEFAULT_SAFETY_NET, ...deps.tuning };
    this.now = deps.now ?? Date.now;
    this.timers = deps.timers ?? realTimers;
    this.random = deps.random ?? Math.random;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // The first near-window read waits a full period: start-up just did a backfill.
    this.nextNearAt = this.now() + this.tuning.nearEveryMs;
    this.replan();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.clearTimer();
    this.clearJudgeTimer();
    await this.busy?.catch(() => undefined);
  }

  /** Rules, settings or the cached calendar changed, or the clock jumped: plan again. */
  replan(): void {
    if (!this.running || this.busy) return;
    this.clearTimer();
    const at = this.nextWake();
    this.timer = this.timers.setTimeout(() => this.wake(), Math.max(0, at - this.now()));
  }

  /** Re-read the near window now (after an outage or a wake from sleep). */
  checkNow(): Promise<void> {
    this.nextNearAt = 0;
    this.nextReleasePollAt = 0;
    this.clearTimer();
    return this.wake();
  }

  /** A webhook or relay notification arrived: it confirms what the net found first. */
  noteDelivered(payload: unknown): void {
    const id = eventDateIdOf(payload);
    if (id !== null) this.expected.delete(id);
    if (this.lateSince !== null) {
      this.lateSince = null;
      this.deps.onWebhooksLate(null);
    }
  }

  private wake(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.busy) return this.busy;
    this.busy = this.round().finally(() => {
      this.busy = null;
      this.replan();
    });
    return this.busy;
  }

  private async round(): Promise<void> {
    const now = this.now();
    const settings = this.deps.settings();
    try {
      const due = this.dueReleases(now, settings);
      if (due.length > 0 && now >= this.nextReleasePollAt) await this.pollReleases(due, settings);
      if (this.now() >= this.nextNearAt) await this.pollNearWindow();
      this.failures = 0;
      this.retryHintMs = null;
    } catch (err) {
      this.failures++;
      this.retryHintMs = retryAfterOf(err);
      this.deps.logger.warn({ err }, 'safety net: the service did not answer');
      // The next try of either read doubles as the probe that notices recovery.
      const retryAt = this.now() + this.backoffMs();
      this.nextReleasePollAt = retryAt;
      this.nextNearAt = Math.min(this.nextNearAt, retryAt);
    }
    this.judgeWebhooks();
  }

  private dueReleases(now: number, settings: Settings): EventDate[] {
    const lead = settings.polling.burstLeadSec * 1000;
    return this.deps.store
      .listEventDates({
        from: new Date(now - this.tuning.giveUpMs).toISOString(),
        to: new Date(now + lead + 1).toISOString(),
      })
      .filter((ed) => needsWatching(ed, settings));
  }

  /** One request for every release due now; the cadence follows the freshest of them. */
  private async pollReleases(due: EventDate[], settings: Settings): Promise<void> {
    const times = due.map((ed) => Date.parse(ed.dateUtc));
    const from = new Date(Math.min(...times) - 1000).toISOString();
    const to = new Date(Math.max(...times) + 1000).toISOString();
    const items = await this.deps.calendar.eventDates({ from, to });
    this.found(this.deps.applier.applyEventDates(items, 'poll'));
    const now = this.now();
    const fastFor = settings.polling.burstTimeoutSec * 1000;
    const fast = times.some((t) => now - t < fastFor);
    this.nextReleasePollAt =
      now + (fast ? settings.polling.burstIntervalSec * 1000 : this.tuning.slowMs);
  }

  private async pollNearWindow(): Promise<void> {
    const now = this.now();
    const items = await this.deps.calendar.eventDates({
      from: new Date(now - NEAR_BEHIND_MS).toISOString(),
      to: new Date(now + NEAR_AHEAD_MS).toISOString(),
    });
    this.found(this.deps.applier.applyEventDates(items, 'poll'));
    this.nextNearAt = this.now() + this.tuning.nearEveryMs;
  }

  /** Changes the net applied first: their webhooks should follow within the grace. */
  private found(changes: DomainChange[]): void {
    if (!this.deps.expectWebhooks()) return;
    const deadline = this.now() + this.tuning.webhookGraceMs;
    for (const c of changes) {
      if (!('eventDate' in c) || !c.eventDate) continue;
      // The grace runs from the first unconfirmed find: a later find of the same release
      // (its print after its creation) must not push the judgement back.
      if (this.expected.has(c.eventDate.id)) continue;
      this.expected.set(c.eventDate.id, { lastUpdated: c.eventDate.lastUpdated, deadline });
    }
    this.armJudge();
  }

  /**
   * Judge each grace when it runs out, on its own timer: a round can be minutes away (the
   * near window's) or stuck in a slow request, and the state must not wait for it.
   */
  private armJudge(): void {
    this.clearJudgeTimer();
    if (!this.running || this.expected.size === 0) return;
    const first = Math.min(...[...this.expected.values()].map((e) => e.deadline));
    this.judgeTimer = this.timers.setTimeout(
      () => {
        this.judgeTimer = null;
        this.judgeWebhooks();
        this.armJudge();
      },
      Math.max(0, first - this.now()),
    );
  }

  private clearJudgeTimer(): void {
    if (this.judgeTimer !== null) this.timers.clearTimeout(this.judgeTimer);
    this.judgeTimer = null;
  }

  private judgeWebhooks(): void {
    const now = this.now();
    for (const [id, e] of this.expected) {
      if (e.deadline > now) continue;
      this.expected.delete(id);
      if (this.lateSince === null) {
        this.lateSince = e.deadline - this.tuning.webhookGraceMs;
        this.deps.logger.warn(
          { eventDateId: id },
          'webhooks late: the safety net found a change first',
        );
        this.deps.onWebhooksLate(this.lateSince);
      }
    }
  }

  private nextWake(): number {
    const now = this.now();
    const settings = this.deps.settings();
    const lead = settings.polling.burstLeadSec * 1000;
    let at = this.nextNearAt;
    if (this.dueReleases(now, settings).length > 0) at = Math.min(at, this.nextReleasePollAt);
    else {
      const next = this.deps.store
        .listEventDates({
          from: new Date(now).toISOString(),
          to: new Date(at + lead).toISOString(),
          limit: 200,
        })
        .filter((ed) => needsWatching(ed, settings))
        .map((ed) => Date.parse(ed.dateUtc) - lead);
      if (next.length > 0) at = Math.min(at, Math.max(now, Math.min(...next)));
    }
    return at;
  }

  /**
   * Exponential from 1 s, capped so recovery is seen within maxBackoffMs; equal jitter (never
   * a near-immediate retry while the service fails); Retry-After wins, up to a minute.
   */
  private backoffMs(): number {
    return backoffDelay(
      { baseMs: 1000, maxMs: this.tuning.maxBackoffMs, jitter: 'equal', maxRetryAfterMs: 60_000 },
      this.failures - 1,
      { retryAfterMs: this.retryHintMs, random: this.random },
    );
  }

  private clearTimer(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}

function eventDateIdOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const id = (payload as { eventDateId?: unknown }).eventDateId;
  return typeof id === 'string' ? id : null;
}
