/** Test helpers for the alerts engine: an in-memory store port, a clock, an engine rig. */
import {
  DEFAULT_ALERT_RULES,
  type AlertRecord,
  type AlertRules,
  type DomainChange,
  type EventDate,
  type NativeNotification,
  type Post,
} from '../../../src/shared/domain.js';
import {
  AlertsEngine,
  type AlertsEngineOptions,
  type AlertStore,
  type NewAlert,
  type UpcomingQuery,
} from '../../../src/main/alerts/index.js';
import { eventDateFixture } from '../../fixtures/domain.js';
import { ManualClock } from '../../support/manual-clock.js';

export const NFP_TIME = '2026-11-06T13:30:00Z';

export const ed = (over: Partial<EventDate> = {}): EventDate =>
  eventDateFixture({
    id: 'ed1',
    eventId: 'e1',
    dateUtc: NFP_TIME,
    actual: 275,
    ratioDeviation: 1.5,
    isBetterThanExpected: true,
    ...over,
  });

export const post = (over: Partial<Post> = {}): Post => ({
  id: 'p1',
  culture: 'en-US',
  title: 'Fed hikes rates by 25 bp',
  summary: 'Powell signals more tightening ahead',
  contentHtml: '<p>…</p>',
  publicationDate: NFP_TIME,
  updateDate: null,
  url: null,
  imageUrl: null,
  authorName: null,
  companyName: null,
  categories: ['Central Banks'],
  tags: ['USD'],
  ...over,
});

/**
 * A second implementation of the engine's store port, with the same contract as the
 * SQLite one: a dedup key is recorded once; `upcoming` is [from, to) on dateUtc.
 */
export class MemoryAlertStore implements AlertStore {
  alerts: AlertRecord[] = [];
  private keys = new Set<string>();
  dates: EventDate[] = [];
  insertAlert(a: NewAlert): AlertRecord | null {
    if (this.keys.has(a.dedupKey)) return null;
    this.keys.add(a.dedupKey);
    const r: AlertRecord = {
      id: this.alerts.length + 1,
      kind: a.kind,
      title: a.title,
      body: a.body,
      createdAt: a.createdAt,
      read: false,
      target: a.target,
      late: a.late === true,
      receipt: a.receipt ?? null,
    };
    this.alerts.push(r);
    return r;
  }
  upcoming(q: UpcomingQuery): EventDate[] {
    return this.dates.filter(
      (d) =>
        d.dateUtc >= q.from && d.dateUtc < q.to && (!q.eventIds || q.eventIds.includes(d.eventId)),
    );
  }
}

/** The shared manual clock (test/support/manual-clock.ts), set to the NFP release. */
export const nfpClock = (): ManualClock => new ManualClock(Date.parse(NFP_TIME));

export interface Rig {
  e: AlertsEngine;
  store: MemoryAlertStore;
  clock: ManualClock;
  sent: NativeNotification[];
  recorded: AlertRecord[];
  rules: AlertRules;
  /** What the sync engine does: record inside the apply, dispatch after commit. */
  apply: (change: DomainChange) => AlertRecord[];
}

export function rig(
  rules: Partial<AlertRules> = {},
  opts: {
    store?: MemoryAlertStore;
    clock?: ManualClock;
    timeZone?: string;
    extra?: Partial<AlertsEngineOptions>;
  } = {},
): Rig {
  const store = opts.store ?? new MemoryAlertStore();
  const clock = opts.clock ?? nfpClock();
  const sent: NativeNotification[] = [];
  const recorded: AlertRecord[] = [];
  const r: AlertRules = { ...DEFAULT_ALERT_RULES, ...rules };
  const e = new AlertsEngine({
    store,
    rules: () => r,
    timeZone: () => opts.timeZone ?? 'UTC',
    now: () => clock.now,
    timers: clock,
    coalesceMs: 1500,
    maxPerMinute: 4,
    ...opts.extra,
  });
  e.onDidNotify((n) => sent.push(n));
  e.onDidRecord((a) => recorded.push(a));
  const apply = (change: DomainChange) => {
    const records = e.recordForChange(change);
    e.dispatch(records);
    return records;
  };
  return { e, store, clock, sent, recorded, rules: r, apply };
}

/** Lets the engine's after-commit microtasks (reminder re-plans) run. */
export const afterCommit = () => new Promise<void>((resolve) => setImmediate(resolve));
