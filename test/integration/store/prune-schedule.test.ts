/**
 * The prune schedule on a real SQLite file that runs for months of simulated time (a
 * manual clock drives both the store's timestamps and the scheduler's timers).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { PruneScheduler } from '../../../src/main/store/prune-schedule.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ed } from './fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.parse('2026-01-01T00:00:00Z');

const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function rig() {
  const clock = new ManualClock(START);
  const store = openStore({
    path: join(mkdtempSync(join(tmpdir(), 'mb-prune-')), 'cache.db'),
    now: clock.read,
  });
  open.push(store);
  const logged: unknown[] = [];
  const scheduler = new PruneScheduler({
    store,
    timers: clock,
    now: clock.read,
    logger: { info: (o: unknown) => logged.push(o), warn: (o: unknown) => logged.push(o) },
  });
  const rows = (table: 'notifications_applied' | 'tombstones') =>
    store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  return { clock, store, scheduler, rows, logged };
}

/** One day of a busy feed: 100 notifications applied and 10 releases deleted. */
function liveDay(store: Store, day: number) {
  store.transaction(() => {
    for (let i = 0; i < 100; i++) store.markNotificationApplied(`day${day}-n${i}`);
    for (let i = 0; i < 10; i++) {
      const id = `ed-${day}-${i}`;
      store.upsertEventDate(ed(id, { lastUpdated: 100 }), {});
      store.deleteEventDate(id, 200);
    }
  });
}

describe('prune schedule', () => {
  it('keeps a store that ran for six months at about a month of keys and tombstones', () => {
    const { clock, store, scheduler, rows, logged } = rig();
    scheduler.start();
    for (let day = 0; day < 180; day++) {
      liveDay(store, day);
      clock.advance(DAY);
    }
    // Unpruned, the tables would hold 18,000 keys and 1,800 tombstones.
    expect(rows('notifications_applied')).toBeLessThanOrEqual(31 * 100);
    expect(rows('notifications_applied')).toBeGreaterThanOrEqual(29 * 100);
    expect(rows('tombstones')).toBeLessThanOrEqual(31 * 10);
    // Recent history still protects: a retried notification from last week is a duplicate,
    // and a deleted release does not come back from an old update…
    expect(store.markNotificationApplied('day172-n5')).toBe(false);
    expect(store.upsertEventDate(ed('ed-172-3', { lastUpdated: 150 }), {}).written).toBe(false);
    // …while keys from months ago are gone.
    expect(store.markNotificationApplied('day3-n5')).toBe(true);
    expect(logged.length).toBeGreaterThan(100);
    scheduler.stop();
    expect(clock.pending).toBe(0);
  });

  it('waits for a quiet store: no prune while writes keep coming', () => {
    const { clock, store, scheduler, rows } = rig();
    liveDay(store, 0);
    clock.advance(40 * DAY);
    scheduler.start();
    // A write every 30 s for two hours: never a minute of quiet.
    for (let k = 0; k < 240; k++) {
      store.transaction(() => store.setSyncState('cursor', String(k)));
      clock.advance(30_000);
    }
    expect(rows('notifications_applied')).toBe(100);
    // Quiet: the prune runs within the idle minute.
    clock.advance(MINUTE);
    expect(rows('notifications_applied')).toBe(0);
    expect(rows('tombstones')).toBe(0);
  });

  it('stops when told, and stops by itself once the store is closed', () => {
    const { clock, store, scheduler, rows } = rig();
    liveDay(store, 0);
    scheduler.start();
    scheduler.stop();
    clock.advance(60 * DAY);
    expect(rows('notifications_applied')).toBe(100);

    scheduler.start();
    store.close();
    expect(() => clock.advance(DAY)).not.toThrow();
    expect(clock.pending).toBe(0);
  });
});
