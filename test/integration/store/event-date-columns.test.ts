/** Event dates built from typed columns (migration 005): same records, raw JSON kept, v4 upgrade. */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { volatilityRank } from '../../../src/shared/format.js';
import { openStore } from '../../../src/main/store/index.js';
import { openDatabase } from '../../../src/main/store/open.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';
import { ed } from './fixtures.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'mb-store-cols-')), 'cache.db');
const nov = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };

// Every field away from its fixture default, and both values of each boolean.
const variants: EventDate[] = [
  ed('plain'),
  ed('full', {
    dateUtc: '2026-11-06T13:30:00.000Z',
    periodDateUtc: '2026-10-01T00:00:00Z',
    periodType: null,
    actual: -0.25,
    revised: 1e-7,
    consensus: null,
    ratioDeviation: 1.5,
    previous: 123456.789,
    isBetterThanExpected: true,
    name: 'Índice «ZEW» 🙂',
    countryCode: 'EMU',
    currencyCode: 'EUR',
    unit: '%',
    potency: null,
    volatility: 'LOW',
    isAllDay: true,
    isTentative: true,
    isPreliminary: true,
    isReport: true,
    isSpeech: true,
    lastUpdated: 1_763_000_000,
  }),
  ed('worse', { isBetterThanExpected: false, isTentative: true, volatility: 'NONE', actual: 0 }),
];

describe('event dates from typed columns', () => {
  it('reads back every record exactly as written, from every query, with raw kept', () => {
    const s = openStore({ path: tmp() });
    for (const v of variants) s.upsertEventDate(v, { ...v, Extra: { from: 'api' } });
    for (const v of variants) {
      expect(s.getEventDate(v.id)).toEqual(v);
      // same key order too: serialised records compare equal (the UI diffs them as JSON)
      expect(JSON.stringify(s.getEventDate(v.id))).toBe(JSON.stringify(v));
      expect(s.getEventDateRaw(v.id)).toEqual({ ...v, Extra: { from: 'api' } });
    }
    const byId = (list: EventDate[]) => Object.fromEntries(list.map((x) => [x.id, x]));
    expect(byId(s.listEventDates(nov))).toEqual(byId(variants));
    expect(byId(s.upcoming({ ...nov }))).toEqual(byId(variants));
    expect(s.eventOccurrences('ev-full', nov)).toEqual([variants[1]]);
    // an identical record is not rewritten; a changed one is
    expect(s.upsertEventDate(variants[1] as EventDate, {}).written).toBe(false);
    expect(s.upsertEventDate({ ...(variants[1] as EventDate), isSpeech: false }, {}).written).toBe(
      true,
    );
    expect(s.getEventDate('full')?.isSpeech).toBe(false);
    s.close();
  });

  it('keeps every index right whichever columns an update changes', () => {
    const s = openStore({ path: tmp() });
    const a = ed('a', { dateUtc: '2026-11-05T13:30:00Z', lastUpdated: 1 });
    s.upsertEventDate(a, {});
    // only values outside the event and pending indexes
    s.upsertEventDate({ ...a, consensus: 7, name: 'Payrolls', lastUpdated: 2 }, {}, a);
    expect(s.listEventDates(nov).map((x) => [x.consensus, x.name])).toEqual([[7, 'Payrolls']]);
    expect(s.nextRelease({ after: '2026-11-01T00:00:00Z' })?.consensus).toBe(7);
    // printed: leaves the pending index
    s.upsertEventDate({ ...a, consensus: 7, name: 'Payrolls', actual: 3, lastUpdated: 3 }, {});
    expect(s.nextRelease({ after: '2026-11-01T00:00:00Z' })).toBeNull();
    // moved to another day and event
    s.upsertEventDate(
      { ...a, eventId: 'ev-b', dateUtc: '2026-12-02T08:00:00Z', lastUpdated: 4 },
      {},
    );
    expect(s.listEventDates(nov)).toEqual([]);
    expect(s.eventOccurrences('ev-b', { from: nov.to, to: '2027-01-01T00:00:00Z' })[0]?.id).toBe(
      'a',
    );
    expect(s.eventOccurrences('ev-a', nov)).toEqual([]);
    expect(s.db.pragma('integrity_check', { simple: true })).toBe('ok');
    s.close();
  });

  it('upgrades a v4 database: records rebuilt from its JSON, unknown API fields kept', () => {
    const path = tmp();
    const v4 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 4) });
    const insert = v4.prepare(
      `INSERT INTO event_dates (id, event_id, date_ms, country_code, currency_code, volatility, volatility_rank,
         name, actual, consensus, previous, revised, last_updated, record, raw)
       VALUES (@id, @eventId, @date, @countryCode, @currencyCode, @volatility, @rank,
         @name, @actual, @consensus, @previous, @revised, @lastUpdated, @record, @raw)`,
    );
    for (const v of variants)
      insert.run({
        ...v,
        date: Date.parse(v.dateUtc),
        rank: volatilityRank(v.volatility),
        record: JSON.stringify(v),
        raw: JSON.stringify({ Id: v.id, FutureField: [1, 2] }),
      });
    v4.close();

    const s = openStore({ path });
    expect(s.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)?.version);
    for (const v of variants) {
      expect(s.getEventDate(v.id)).toEqual(v);
      expect(s.getEventDateRaw(v.id)).toEqual({ Id: v.id, FutureField: [1, 2] });
    }
    expect(s.listEventDates({ ...nov, volatilities: ['LOW'] }).map((x) => x.id)).toEqual(['full']);
    const columns = s.db.prepare("SELECT name FROM pragma_table_info('event_dates')").pluck().all();
    expect(columns).not.toContain('record');
    expect(columns).toContain('raw');
    s.close();
  });

  it('answers a calendar window from the index alone', () => {
    const s = openStore({ path: tmp() });
    const stmt = s.db.prepare(
      `EXPLAIN QUERY PLAN SELECT id, event_id, date_utc, period_date_utc, period_type, actual,
         revised, consensus, ratio_deviation, previous, better, name, country_code, currency_code,
         unit, potency, volatility, flags, last_updated
       FROM event_dates WHERE date_ms >= 1 AND date_ms < 2 ORDER BY date_ms, id`,
    );
    const plan = (stmt.all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan).toMatch(/COVERING INDEX event_dates_window/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    s.close();
  });
});

describe('checkpoints', () => {
  afterEach(() => vi.useRealTimers());
  it('leaves a write to the WAL and copies it into the database file once idle', () => {
    const path = tmp();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const s = openStore({ path });
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = statSync(path).size;
    s.transaction(() => {
      for (let i = 0; i < 2000; i++) s.upsertEventDate(ed(`c${i}`), { i });
    });
    // committed and readable, but not yet copied (no checkpoint inside the commit)
    expect(s.getEventDate('c1999')?.id).toBe('c1999');
    expect(statSync(path).size).toBe(before);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    // the idle checkpoint is due a second after the write, not before
    vi.advanceTimersByTime(999);
    expect(statSync(path).size).toBe(before);
    vi.advanceTimersByTime(1);
    expect(statSync(path).size).toBeGreaterThan(before);
    s.close();
  });
});
