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
import { NewsWindowAlerts } from '../../../src/main/notify/news-window-alerts.js';
import { CorePushes } from '../../../src/main/service/bus.js';
import { publishCore } from '../../../src/main/service/publish.js';
import { openStore } from '../../../src/main/store/index.js';
import { ChangeApplier } from '../../../src/main/sync/applier.js';
import { silentLogger } from '../../../src/node/log/logger.js';
import {
  DEFAULT_ALERT_RULES,
  type AlertRecord,
  type DomainChange,
  type NativeNotification,
} from '../../../src/shared/domain.js';
import { DEFAULT_NEWS_WINDOW } from '../../../src/shared/news-windows.js';
import { ed } from '../../integration/store/fixtures.js';
import { ManualClock } from '../../support/manual-clock.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

function core() {
  const clock = new ManualClock(Date.parse('2026-11-20T13:30:02Z'));
  const store = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-publish-')), 'c.db') });
  const alerts = new AlertsEngine({
    store,
    rules: () => DEFAULT_ALERT_RULES,
    timeZone: () => 'UTC',
    now: clock.read,
    timers: clock,
    coveredSince: () => Date.parse('2026-11-01T00:00:00Z'),
  });
  const offline = async () => {
    throw new Error('offline');
  };
  const applier = new ChangeApplier({
    store,
    calendar: { eventDates: offline, eventDate: offline, event: offline, categories: offline },
    news: { post: offline, feed: offline },
    alerts,
    logger: silentLogger(),
    cultures: () => ['en-US'],
  });
  const newsWindowAlerts = new NewsWindowAlerts({
    settings: () => DEFAULT_NEWS_WINDOW,
    upcoming: () => [],
    timeZone: () => 'UTC',
    hourCycle: () => 'h23',
    now: clock.read,
    timers: clock,
    onError: (err) => {
      throw err;
    },
  });
  const bus = new CorePushes();
  const subscriptions = publishCore({
    bus,
    applier,
    alerts,
    newsWindowAlerts,
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
  cleanup.push(() => {
    subscriptions.dispose();
    applier.cancelPending();
    alerts.stop();
    store.close();
  });
  return { clock, store, applier, seen, subscriptions };
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
