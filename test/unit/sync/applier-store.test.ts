/** The batched apply path against a real SQLite store: merged records, raw JSON, alerts once. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertsEngine } from '../../../src/main/alerts/index.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import type { ChangeApplier } from '../../../src/main/sync/applier.js';
import { DEFAULT_ALERT_RULES, type DomainChange } from '../../../src/shared/domain.js';
import { ed } from '../../integration/store/fixtures.js';
import { offlineApplier } from '../../support/offline-applier.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

function setup(): { store: Store; applier: ChangeApplier; seen: DomainChange[] } {
  const store = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-apply-')), 'c.db') });
  const alerts = new AlertsEngine({
    store,
    rules: () => DEFAULT_ALERT_RULES,
    timeZone: () => 'UTC',
  });
  const seen: DomainChange[] = [];
  const applier = offlineApplier({ store, alerts });
  applier.onDidCommit(({ changes }) => seen.push(...changes));
  cleanup.push(() => {
    applier.cancelPending();
    alerts.stop();
    store.close();
  });
  return { store, applier, seen };
}

const update = (id: string, lastUpdated: number, changes: { key: string; value: unknown }[]) => ({
  payload: {
    type: 'eventDate_updated',
    eventDateId: id,
    eventId: `ev-${id}`,
    lastUpdated,
    changes,
  },
});

describe('applying a burst of updates to cached event dates', () => {
  it('merges into the stored record, keeps unknown API fields in raw, and alerts a print once', async () => {
    const { store, applier, seen } = setup();
    const nfp = ed('nfp', { dateUtc: new Date().toISOString(), lastUpdated: 100 });
    store.upsertEventDate(nfp, { ...nfp, VendorField: 'kept' });

    const burst = [
      update('nfp', 110, [{ key: 'consensus', value: 180 }]),
      update('nfp', 120, [
        { key: 'actual', value: '256' },
        { key: 'futureKey', value: { x: 1 } },
      ]),
      // the same delivery again, and an older one: neither changes anything
      update('nfp', 120, [
        { key: 'actual', value: '256' },
        { key: 'futureKey', value: { x: 1 } },
      ]),
      update('nfp', 105, [{ key: 'consensus', value: 1 }]),
    ];
    await applier.applyMany(burst, 'relay');

    const expected = { ...nfp, consensus: 180, actual: 256, lastUpdated: 120 };
    expect(store.getEventDate('nfp')).toEqual(expected);
    expect(store.getEventDateRaw('nfp')).toEqual({
      ...nfp,
      VendorField: 'kept',
      consensus: 180,
      actual: '256',
      futureKey: { x: 1 },
      lastUpdated: 120,
    });
    expect(seen.map((c) => c.kind)).toEqual(['eventDateUpdated', 'released']);
    expect(store.listAlerts().map((a) => a.kind)).toEqual(['released']);
    // the calendar shows the merged record
    const day = Date.parse(nfp.dateUtc);
    expect(
      store.listEventDates({
        from: new Date(day - 1000).toISOString(),
        to: new Date(day + 1000).toISOString(),
      }),
    ).toEqual([expected]);
  });
});

describe('notifications by type', () => {
  it('keeps an unknown type as data, even one named like an Object method', async () => {
    const { store, applier, seen } = setup();
    for (const type of ['fx_rate_changed', 'constructor', 'toString']) {
      await expect(applier.applyNotification({ type, id: 1 }, 'relay')).resolves.toEqual([]);
    }
    expect(seen).toEqual([]);
    const kept = store.db
      .prepare("SELECT count(*) AS n FROM sync_state WHERE key LIKE 'unknown:%'")
      .get() as { n: number };
    expect(kept.n).toBe(3);
  });

  it('refuses a known type with a malformed body, naming the field', async () => {
    const { applier } = setup();
    const bad = { type: 'eventDate_updated', eventDateId: 'x', eventId: 'e', changes: [] };
    await expect(applier.applyNotification(bad, 'relay')).rejects.toMatchObject({
      name: 'InvalidNotificationError',
      message: expect.stringMatching(/invalid notification:[\s\S]*lastUpdated/),
    });
  });

  it('deletes a cached event date and reports it once, however often it is delivered', async () => {
    const { store, applier, seen } = setup();
    const deleted = {
      type: 'eventDate_deleted',
      eventDateId: 'cpi',
      eventId: 'ev-cpi',
      lastUpdated: 200,
    };
    store.upsertEventDate(ed('cpi', { lastUpdated: 100 }), {});
    await applier.applyNotification(deleted, 'relay');
    await applier.applyNotification(deleted, 'relay');
    expect(store.getEventDate('cpi')).toBeNull();
    expect(seen.map((c) => c.kind)).toEqual(['eventDateRemoved']);
  });
});
