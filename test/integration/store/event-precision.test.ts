/**
 * Each event's usual precision (migration 009): a release whose own figures are all round
 * (an ECB hold at 1.9 / 1.9 / 1.9) is read with the decimals its history prints with, so
 * the calendar shows "1.90%" as the detail does, not "1.9%".
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { releaseDecimals, formatValue } from '../../../src/shared/format.js';
import { openStore } from '../../../src/main/store/index.js';
import { openDatabase } from '../../../src/main/store/open.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';
import { calendarApi } from '../../../src/main/service/api/calendar.js';
import { ed } from './fixtures.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'mb-store-precision-')), 'cache.db');
const nov = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };

/** ECB decisions: 2.15 then 2.40 in its history, then a hold at 1.9 in November. */
const ecb = (id: string, date: string, actual: number | null, previous: number): EventDate =>
  ed(id, {
    eventId: 'ecb',
    dateUtc: date,
    unit: '%',
    potency: 'ZERO',
    actual,
    consensus: actual ?? previous,
    previous,
  });
const history = [
  ecb('ecb-sep', '2026-09-10T12:15:00Z', 2.15, 2.15),
  ecb('ecb-oct', '2026-10-22T12:15:00Z', 2.4, 2.15),
];
const hold = ecb('ecb-nov', '2026-11-05T13:15:00Z', 1.9, 1.9);

const list = (store: ReturnType<typeof openStore>) =>
  calendarApi({ store } as unknown as Parameters<typeof calendarApi>[0]).listEventDates(nov);

describe('event precision', () => {
  it('reads a hold at 1.9 with the two decimals its history prints, and shows "1.90%"', async () => {
    const store = openStore({ path: tmp() });
    for (const h of [...history, hold]) store.upsertEventDate(h, {});
    // an event with whole figures only keeps them whole
    store.upsertEventDate(
      ed('nfp', { eventId: 'nfp', actual: 275, consensus: 200, previous: 229 }),
      {},
    );
    const rows = await list(store);
    const row = rows.find((r) => r.id === 'ecb-nov') as EventDate;
    expect(row.decimals).toBe(2);
    expect(formatValue(row.actual, row.unit, row.potency, releaseDecimals(row))).toBe('1.90%');
    const nfp = rows.find((r) => r.id === 'nfp') as EventDate;
    expect(nfp.decimals).toBeUndefined();
    expect(releaseDecimals(nfp)).toBe(0);
    store.close();
  });

  it('fills the precision of rows cached before the upgrade (a v8 file)', async () => {
    const path = tmp();
    const before = openStore({ path });
    for (const h of [...history, hold]) before.upsertEventDate(h, {});
    before.close();
    // the same file as version 8 left it: the rows, no precision table
    const v8 = openDatabase(path, { migrations: MIGRATIONS });
    v8.exec('DROP TABLE event_precision');
    v8.pragma('user_version = 8');
    v8.close();
    const store = openStore({ path });
    expect(store.eventPrecision(['ecb', 'nobody'])).toEqual(new Map([['ecb', 2]]));
    expect((await list(store)).find((r) => r.id === 'ecb-nov')?.decimals).toBe(2);
    store.close();
  });
});
