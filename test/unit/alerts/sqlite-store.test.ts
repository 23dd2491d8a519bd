/** The engine against the real SQLite store: the port's contract, atomicity and restarts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertsEngine } from '../../../src/main/alerts/index.js';
import { Acknowledgements } from '../../../src/main/alerts/acknowledgements.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import {
  DEFAULT_ALERT_RULES,
  type DomainChange,
  type NativeNotification,
} from '../../../src/shared/domain.js';
import type { ManualClock } from '../../support/manual-clock.js';
import { ed, nfpClock } from './helpers.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'macrobell-alerts-'));
  dirs.push(dir);
  return join(dir, 'cache.sqlite');
}

function open(path: string) {
  const store = openStore({ path });
  stores.push(store);
  return store;
}

function engineOn(
  store: Store,
  clock: ManualClock,
  sent: NativeNotification[],
  acknowledged: (n: NativeNotification) => boolean = () => true,
) {
  const engine = new AlertsEngine({
    store,
    rules: () => ({ ...DEFAULT_ALERT_RULES, watchedEventIds: ['e1'] }),
    timeZone: () => 'UTC',
    now: () => clock.now,
    timers: clock,
  });
  // the window's toast acknowledges each notification as it goes out
  const acks = new Acknowledgements({
    store,
    now: () => clock.now,
    timers: clock,
    onError: () => {},
  });
  engine.onDidNotify((n) => {
    const out = acks.sent(n);
    if (acknowledged(n))
      acks.acknowledge({ id: out.deliveryId as number, surface: 'toast', at: clock.now });
    sent.push(n);
  });
  return engine;
}

const release: DomainChange = { kind: 'released', eventDate: ed(), source: 'relay' };

describe('alerts on the SQLite store', () => {
  it('an alert recorded in a transaction that rolls back is gone, and comes back on retry', () => {
    const store = open(dbPath());
    const clock = nfpClock();
    const sent: NativeNotification[] = [];
    const e = engineOn(store, clock, sent);
    expect(() =>
      store.transaction(() => {
        e.recordForChange(release);
        throw new Error('apply failed half-way');
      }),
    ).toThrow('apply failed half-way');
    expect(store.listAlerts()).toHaveLength(0);
    const records = store.transaction(() => e.recordForChange(release));
    e.dispatch(records);
    clock.advance(2_000);
    expect(sent.map((n) => n.title)).toEqual(['US Nonfarm Payrolls']);
  });

  it('a restart (new engine, reopened file) does not alert the same release again', () => {
    const path = dbPath();
    const clock = nfpClock();
    const sent: NativeNotification[] = [];
    const first = open(path);
    engineOn(first, clock, sent).recordForChange(release);
    first.close();
    const second = open(path);
    const again = engineOn(second, clock, sent);
    expect(second.transaction(() => again.recordForChange({ ...release, source: 'poll' }))).toEqual(
      [],
    );
    expect(second.countUnreadAlerts()).toBe(1);
  });

  it('reminders come from the stored calendar', () => {
    const store = open(dbPath());
    const clock = nfpClock();
    clock.now = Date.parse('2026-11-06T13:00:00Z');
    store.upsertEventDate(ed({ actual: null }), {});
    const sent: NativeNotification[] = [];
    engineOn(store, clock, sent).rescheduleReminders();
    clock.advance(26 * 60_000);
    expect(sent.map((n) => n.title)).toEqual(['US Nonfarm Payrolls in 5 min']);
    expect(store.countUnreadAlerts()).toBe(1);
  });

  it('keeps each alert’s receipt, stamps when it was sent and acknowledged, and sums print → shown by path', () => {
    const path = dbPath();
    const clock = nfpClock();
    const sent: NativeNotification[] = [];
    const store = open(path);
    const e = engineOn(store, clock, sent);
    clock.advance(210);
    const viaRelay = store.transaction(() =>
      e.recordForChange(release, { relayReceivedAt: clock.now - 60 }),
    );
    e.dispatch(viaRelay);
    clock.advance(150); // the settle for prints of the same moment
    const netFound: DomainChange = {
      kind: 'released',
      eventDate: ed({ id: 'ed2', dateUtc: '2026-11-06T13:29:58Z' }),
      source: 'poll',
    };
    e.dispatch(store.transaction(() => e.recordForChange(netFound)));
    clock.advance(5_000);
    expect(sent).toHaveLength(2);
    // reopened: the receipts are in the file, the shown hop stamped after the sink
    store.close();
    stores.splice(stores.indexOf(store), 1);
    const reopened = open(path);
    const byId = new Map(
      reopened.listAlerts().map((a) => [a.target.type === 'eventDate' && a.target.eventDateId, a]),
    );
    const t0 = Date.parse('2026-11-06T13:30:00Z');
    expect(byId.get('ed1')?.receipt).toEqual({
      path: 'relay',
      scheduledAt: t0,
      lastUpdatedAt: 1_000,
      printAt: t0,
      relayReceivedAt: t0 + 150,
      appliedAt: t0 + 210,
      sentAt: t0 + 360,
      shownAt: t0 + 360,
      shownBy: 'toast',
    });
    expect(byId.get('ed2')?.receipt).toMatchObject({ path: 'poll', relayReceivedAt: null });
    const latency = reopened.alertLatency(clock.now);
    expect(latency.find((l) => l.path === 'relay')).toEqual({
      path: 'relay',
      count: 1,
      unacknowledged: 0,
      p50Ms: 360,
      p99Ms: 360,
    });
    expect(latency.find((l) => l.path === 'poll')?.count).toBe(1);
    // a day later, nothing is in the window
    expect(reopened.alertLatency(clock.now + 86_400_000 + 10_000)).toEqual([]);
    // For the desk: the day's prints (UTC), how late each was, and the last one.
    const r2 = byId.get('ed2')?.receipt;
    const late2 = (r2?.shownAt ?? 0) - (r2?.printAt ?? 0);
    expect(reopened.alertsToday(clock.now)).toEqual({
      day: Date.parse('2026-11-06T00:00:00Z'),
      count: 2,
      unacknowledged: 0,
      p50LateMs: Math.min(360, late2),
      maxLateMs: Math.max(360, late2),
      last: { title: byId.get('ed2')?.title, printAt: r2?.printAt, lateMs: late2 },
    });
    expect(reopened.alertsToday(Date.parse('2026-11-07T00:00:00Z'))).toMatchObject({
      count: 0,
      p50LateMs: null,
      last: null,
    });
  });

  it('tells the desk a print no surface acknowledged as not seen, never as late by its applied time', () => {
    const store = open(dbPath());
    const clock = nfpClock();
    const sent: NativeNotification[] = [];
    // The window acknowledges the first print's notification only.
    const e = engineOn(store, clock, sent, () => sent.length === 0);
    clock.advance(200);
    e.dispatch(store.transaction(() => e.recordForChange(release)));
    clock.advance(5_000);
    const unseen: DomainChange = {
      kind: 'released',
      eventDate: ed({ id: 'ed2', dateUtc: '2026-11-06T13:30:02Z' }),
      source: 'poll',
    };
    e.dispatch(store.transaction(() => e.recordForChange(unseen)));
    clock.advance(5_000);
    expect(sent).toHaveLength(2);
    const today = store.alertsToday(clock.now);
    expect(today).toMatchObject({ count: 2, unacknowledged: 1 });
    // Lateness is the seen print's only: the unseen one is not stamped "late by 0.2 s".
    expect(today.p50LateMs).toBe(today.maxLateMs);
    expect(today.last?.printAt).toBe(Date.parse('2026-11-06T13:30:00Z'));
  });
});
