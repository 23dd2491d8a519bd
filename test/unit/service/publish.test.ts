/**
 * The one publish point (src/main/service/publish.ts) on the real apply path: a real
 * SQLite file, the real applier and alerts engine. What a transaction alerted reaches the
 * window only after it commits (a rollback pushes nothing), once; a print the decision
 * calls news says so on its change, a history row does not.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertsEngine } from '../../../src/main/alerts/index.js';
import { Acknowledgements } from '../../../src/main/alerts/acknowledgements.js';
import { NewsWindowAlerts } from '../../../src/main/notify/news-window-alerts.js';
import { CorePushes } from '../../../src/main/service/bus.js';
import { publishCore } from '../../../src/main/service/publish.js';
import { openStore } from '../../../src/main/store/index.js';
import {
  DEFAULT_ALERT_RULES,
  type AlertRecord,
  type AlertRules,
  type EventDate,
  type DomainChange,
  type NativeNotification,
} from '../../../src/shared/domain.js';
import { DEFAULT_NEWS_WINDOW } from '../../../src/shared/news-windows.js';
import { ed } from '../../integration/store/fixtures.js';
import { ManualClock } from '../../support/manual-clock.js';
import { offlineApplier } from '../../support/offline-applier.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

function core(
  opts: { rules?: Partial<AlertRules>; upcoming?: EventDate[]; windows?: boolean } = {},
) {
  const clock = new ManualClock(Date.parse('2026-11-20T13:30:02Z'));
  const store = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-publish-')), 'c.db') });
  const alerts = new AlertsEngine({
    store,
    rules: () => ({ ...DEFAULT_ALERT_RULES, ...opts.rules }),
    timeZone: () => 'UTC',
    now: clock.read,
    timers: clock,
    coveredSince: () => Date.parse('2026-11-01T00:00:00Z'),
  });
  const applier = offlineApplier({ store, alerts });
  const newsWindowAlerts = new NewsWindowAlerts({
    settings: () => ({ ...DEFAULT_NEWS_WINDOW, enabled: opts.windows === true, alerts: true }),
    upcoming: () => opts.upcoming ?? [],
    timeZone: () => 'UTC',
    hourCycle: () => 'h23',
    now: clock.read,
    timers: clock,
    onError: (err) => {
      throw err;
    },
  });
  const bus = new CorePushes();
  const acks = new Acknowledgements({
    store,
    now: clock.read,
    timers: clock,
    deadlineMs: 1_000,
    onError: (err) => {
      throw err;
    },
  });
  const subscriptions = publishCore({
    bus,
    applier,
    alerts,
    newsWindowAlerts,
    acks,
    sync: { replanBursts: () => undefined },
    watchlist: { relayConnected: () => undefined },
    status: { push: () => undefined },
    tokens: { onStateChange: () => () => undefined },
  });
  const seen = {
    alert: [] as AlertRecord[],
    changes: [] as DomainChange[][],
    notification: [] as NativeNotification[],
  };
  bus.pushes.alert.event((a) => seen.alert.push(a));
  bus.pushes.changes.event((c) => seen.changes.push(c));
  bus.pushes.notification.event((n) => seen.notification.push(n));
  const fallbacks: NativeNotification[] = [];
  bus.pushes.fallback.event((n) => fallbacks.push(n));
  cleanup.push(() => {
    subscriptions.dispose();
    applier.cancelPending();
    alerts.stop();
    store.close();
  });
  return { clock, store, applier, seen, subscriptions, acks, fallbacks, newsWindowAlerts };
}

const printOf = (actual: number) => ({
  type: 'eventDate_updated',
  eventDateId: 'nfp',
  eventId: 'ev-nfp',
  lastUpdated: 200,
  changes: [{ key: 'actual', value: actual }],
});

describe('one publish point, after commit', () => {
  it('a rollback pushes no alert; the retry pushes one alert, one change set, one notification', async () => {
    const { clock, store, applier, seen } = core();
    store.upsertEventDate(ed('nfp', { volatility: 'HIGH' }), {});
    const failing = () => {
      throw new Error('the cursor could not be saved');
    };
    await expect(
      applier.applyMany([{ payload: printOf(275), afterApply: failing }], 'relay'),
    ).rejects.toThrow('the cursor could not be saved');
    clock.advance(5_000);
    expect(store.listAlerts()).toEqual([]);
    expect(seen).toEqual({ alert: [], changes: [], notification: [] });

    await applier.applyMany([{ payload: printOf(275) }], 'relay');
    expect(seen.alert.map((a) => a.kind)).toEqual(['released']);
    expect(seen.changes).toHaveLength(1);
    const released = seen.changes[0]?.find((c) => c.kind === 'released');
    expect(released).toMatchObject({ print: { late: false } });
    clock.advance(5_000);
    expect(seen.notification).toHaveLength(1);
    expect(seen.notification[0]?.alertIds).toEqual([seen.alert[0]?.id]);
    expect(store.listAlerts()).toHaveLength(1);
  });

  it('history (a year of prints for a detail) changes the calendar but is no print: no alert, no mark', () => {
    const { clock, applier, seen } = core();
    const lastYear = ed('nfp-2025', { dateUtc: '2025-11-07T13:30:00Z', actual: 119 });
    applier.applyEventDates([{ value: lastYear, raw: {} }], 'backfill');
    clock.advance(5_000);
    const released = seen.changes.flat().filter((c) => c.kind === 'released');
    expect(released).toHaveLength(1);
    expect(released[0]).not.toHaveProperty('print');
    expect(seen.alert).toEqual([]);
    expect(seen.notification).toEqual([]);
  });

  it('once disposed (the core stopped), nothing more is published', async () => {
    const { clock, store, applier, seen, subscriptions } = core();
    store.upsertEventDate(ed('nfp', { volatility: 'HIGH' }), {});
    subscriptions.dispose();
    await applier.applyMany([{ payload: printOf(275) }], 'relay');
    clock.advance(5_000);
    expect(seen).toEqual({ alert: [], changes: [], notification: [] });
  });
});

describe('a receipt says "shown" only when a surface acknowledged it', () => {
  /** The one print's notification, once delivered (past the grouping wait). */
  async function delivered(c: ReturnType<typeof core>) {
    c.store.upsertEventDate(ed('nfp', { volatility: 'HIGH' }), {});
    await c.applier.applyMany([{ payload: printOf(275) }], 'relay');
    c.clock.advance(200); // the 150 ms settle: the notification goes out
    expect(c.seen.notification).toHaveLength(1);
    return c.seen.notification[0] as NativeNotification;
  }
  const receipt = (c: ReturnType<typeof core>) => c.store.listAlerts()[0]?.receipt;

  it('sent is not shown: the toast acknowledges within the deadline, the receipt names it, no fallback', async () => {
    const c = core();
    const n = await delivered(c);
    const sentAt = receipt(c)?.sentAt as number;
    expect(sentAt).toBeGreaterThan(0);
    expect(n.deliveryId).toBeGreaterThan(0);
    expect(receipt(c)).toMatchObject({ sentAt, shownAt: null });
    expect(c.store.alertLatency(c.clock.now)).toEqual([
      { path: 'relay', count: 0, unacknowledged: 1, p50Ms: 0, p99Ms: 0 },
    ]);

    c.clock.advance(sentAt + 300 - c.clock.now);
    // the surface's clock may run ahead of the core's: kept between the send and now
    c.acks.acknowledge({ id: n.deliveryId as number, surface: 'toast', at: c.clock.now + 60_000 });
    c.clock.advance(5_000);
    expect(c.fallbacks).toEqual([]);
    expect(receipt(c)).toMatchObject({ shownAt: sentAt + 300, shownBy: 'toast', sentAt });
    expect(receipt(c)?.fallbackAt).toBeUndefined();
    const [row] = c.store.alertLatency(c.clock.now);
    expect(row).toMatchObject({ path: 'relay', count: 1, unacknowledged: 0 });
  });

  it('no acknowledgement by the deadline: the fallback push fires once, the receipt says so and is not counted as shown', async () => {
    const c = core();
    const n = await delivered(c);
    const sentAt = receipt(c)?.sentAt as number;
    c.clock.advance(sentAt + 999 - c.clock.now);
    expect(c.fallbacks).toEqual([]);
    c.clock.advance(1);
    expect(c.fallbacks).toEqual([n]);
    expect(receipt(c)).toMatchObject({ sentAt, fallbackAt: sentAt + 1_000, shownAt: null });
    c.clock.advance(60_000);
    expect(c.fallbacks).toHaveLength(1);
    expect(c.store.alertLatency(c.clock.now)).toEqual([
      { path: 'relay', count: 0, unacknowledged: 1, p50Ms: 0, p99Ms: 0 },
    ]);
  });

  it('a core stopped before the deadline falls back to nothing (its deadlines end with it)', async () => {
    const c = core();
    await delivered(c);
    c.subscriptions.dispose();
    c.clock.advance(60_000);
    expect(c.fallbacks).toEqual([]);
    expect(c.clock.pending).toBe(0);
  });

  it("the fallback's own acknowledgement names it; a second surface later changes nothing", async () => {
    const c = core();
    const n = await delivered(c);
    const sentAt = receipt(c)?.sentAt as number;
    c.clock.advance(1_040);
    expect(c.fallbacks).toHaveLength(1);
    expect(c.acks.acknowledge({ id: n.deliveryId as number, surface: 'page-alert', at: 0 })).toBe(
      true,
    );
    // an "at" before the send (a clock behind the core's) is kept at the send
    expect(receipt(c)).toMatchObject({ shownBy: 'page-alert', shownAt: sentAt });
    c.acks.acknowledge({ id: n.deliveryId as number, surface: 'sound', at: c.clock.now });
    expect(receipt(c)).toMatchObject({ shownBy: 'page-alert' });
    expect(c.acks.acknowledge({ id: 999, surface: 'toast', at: c.clock.now })).toBe(false);
  });
});

describe("a news window's notice obeys the trader's rules, as every alert does (issue #42)", () => {
  /** A HIGH release at 14:00 UTC: its window (2 min before) opens at 13:58. */
  const cpi = ed('cpi', {
    name: 'Consumer Price Index',
    dateUtc: '2026-11-20T14:00:00Z',
    volatility: 'HIGH',
    actual: null,
  });
  const openWindow = (c: ReturnType<typeof core>) => {
    c.newsWindowAlerts.start();
    cleanup.push(() => c.newsWindowAlerts.stop());
    c.clock.advance(Date.parse('2026-11-20T13:58:00Z') - c.clock.now + 1_000);
  };

  it('out of quiet hours it is one notification with sound', () => {
    const c = core({ windows: true, upcoming: [cpi] });
    openWindow(c);
    expect(c.seen.notification.map((n) => [n.title, n.silent])).toEqual([
      ['News window open: US CPI', false],
    ]);
  });

  it('in quiet hours it comes silently (it made a sound at night)', () => {
    const quiet = { enabled: true, start: '13:00', end: '15:00', timeZone: 'UTC' };
    const c = core({ windows: true, upcoming: [cpi], rules: { quietHours: quiet } });
    openWindow(c);
    expect(c.seen.notification.map((n) => [n.title, n.silent])).toEqual([
      ['News window open: US CPI', true],
    ]);
  });

  it('while alerts are paused it makes no notification at all', () => {
    const pausedUntil = Date.parse('2026-11-20T15:00:00Z');
    const c = core({ windows: true, upcoming: [cpi], rules: { pausedUntil } });
    openWindow(c);
    expect(c.seen.notification).toHaveLength(0);
  });
});
