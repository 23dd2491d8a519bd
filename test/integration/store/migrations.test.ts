/**
 * Every migration from 001 on a cache as the first version wrote it: the result has exactly
 * the tables and columns `schema.ts` declares (the types the code reads rows with), the same
 * schema as a new cache, and the rows the later migrations rewrote read back as the current
 * code expects (flags, precision, plain titles, the search index).
 */
import type Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import { openDatabase } from '../../../src/main/store/open.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';
import type * as Schema from '../../../src/main/store/schema.js';
import { volatilityRank } from '../../../src/shared/format.js';
import { postFixture } from '../../fixtures/domain.js';
import { ed } from './fixtures.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'mb-store-migrations-')), 'cache.db');

type Affinity<V> = NonNullable<V> extends number ? 'INTEGER' | 'REAL' : 'TEXT';
/** A column's declaration as `schema.ts` types it: a column typed without null is NOT NULL. */
type Declared<V> = null extends V ? Affinity<V> : `${Affinity<V>} NOT NULL`;
/** Every column of a table interface, none missing and none extra (the compiler checks). */
type Table<T> = { [K in keyof T]-?: Declared<T[K]> };

const table = <T>(columns: Table<T>) => columns as Record<string, string>;

/** The tables the current code reads, from schema.ts (FTS5's own tables aside). */
const EXPECTED: Record<string, Record<string, string>> = {
  events: table<Schema.EventsTable>({
    id: 'TEXT NOT NULL',
    name: 'TEXT NOT NULL',
    country_code: 'TEXT NOT NULL',
    currency_code: 'TEXT NOT NULL',
    category_id: 'TEXT',
    volatility: 'TEXT NOT NULL',
    raw: 'TEXT NOT NULL',
  }),
  categories: table<Schema.CategoriesTable>({ id: 'TEXT NOT NULL', name: 'TEXT NOT NULL' }),
  event_dates: table<Schema.EventDatesTable>({
    id: 'TEXT NOT NULL',
    event_id: 'TEXT NOT NULL',
    date_ms: 'INTEGER NOT NULL',
    date_utc: 'TEXT NOT NULL',
    period_date_utc: 'TEXT',
    period_type: 'TEXT',
    actual: 'REAL',
    revised: 'REAL',
    consensus: 'REAL',
    ratio_deviation: 'REAL',
    previous: 'REAL',
    better: 'INTEGER',
    name: 'TEXT NOT NULL',
    country_code: 'TEXT NOT NULL',
    currency_code: 'TEXT NOT NULL',
    unit: 'TEXT',
    potency: 'TEXT',
    volatility: 'TEXT NOT NULL',
    volatility_rank: 'INTEGER NOT NULL',
    flags: 'INTEGER NOT NULL',
    last_updated: 'INTEGER NOT NULL',
    raw: 'TEXT NOT NULL',
  }),
  event_precision: table<Schema.EventPrecisionTable>({
    event_id: 'TEXT NOT NULL',
    decimals: 'INTEGER NOT NULL',
  }),
  posts: table<Schema.PostsTable>({
    pk: 'INTEGER NOT NULL',
    id: 'TEXT NOT NULL',
    culture: 'TEXT NOT NULL',
    published_ms: 'INTEGER NOT NULL',
    updated_ms: 'INTEGER NOT NULL',
    title: 'TEXT NOT NULL',
    summary: 'TEXT',
    author_name: 'TEXT',
    record: 'TEXT NOT NULL',
    raw: 'TEXT NOT NULL',
    read: 'INTEGER NOT NULL',
  }),
  tombstones: table<Schema.TombstonesTable>({
    kind: 'TEXT NOT NULL',
    id: 'TEXT NOT NULL',
    culture: 'TEXT NOT NULL',
    last_updated: 'INTEGER NOT NULL',
    deleted_at: 'INTEGER NOT NULL',
  }),
  notifications_applied: table<Schema.NotificationsAppliedTable>({
    key: 'TEXT NOT NULL',
    applied_at: 'INTEGER NOT NULL',
  }),
  sync_state: table<Schema.SyncStateTable>({ key: 'TEXT NOT NULL', value: 'TEXT NOT NULL' }),
  alerts: table<Schema.AlertsTable>({
    id: 'INTEGER NOT NULL',
    dedup_key: 'TEXT NOT NULL',
    kind: 'TEXT NOT NULL',
    title: 'TEXT NOT NULL',
    body: 'TEXT NOT NULL',
    created_at: 'INTEGER NOT NULL',
    read: 'INTEGER NOT NULL',
    target: 'TEXT NOT NULL',
    late: 'INTEGER NOT NULL',
    receipt: 'TEXT',
  }),
};
const FTS_COLUMNS: (keyof Schema.PostsFtsTable)[] = ['title', 'summary', 'body'];

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/** Each ordinary table's columns as declared in the file (a primary key counts as NOT NULL). */
function tablesOf(db: Database.Database): Record<string, Record<string, string>> {
  const names = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'posts_fts%' ORDER BY name`,
    )
    .pluck()
    .all() as string[];
  const info = db.prepare<[string], ColumnInfo>('SELECT * FROM pragma_table_info(?)');
  return Object.fromEntries(
    names.map((name) => [
      name,
      Object.fromEntries(
        info
          .all(name)
          .map((c) => [c.name, c.notnull || c.pk ? `${c.type} NOT NULL` : c.type] as const),
      ),
    ]),
  );
}

const schemaOf = (db: Database.Database) =>
  db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();

// A release of an event whose figures print with two decimals, tentative and a speech.
const hold = ed('ecb-nov', {
  eventId: 'ecb',
  actual: 1.9,
  consensus: 1.9,
  previous: 1.85,
  isTentative: true,
  isSpeech: true,
  volatility: 'HIGH',
});
const whole = ed('nfp-nov', { eventId: 'nfp', actual: 275, consensus: 200, previous: 229 });
const post = postFixture({
  id: 'p1',
  title: 'S&amp;P 500 &#8211; Fed&#8217;s <b>pause</b>',
  summary: '<p>Stocks &amp; bonds</p>',
  contentHtml: '<p>The Fed&rsquo;s view &mdash; a &euro;5bn gap&hellip;</p>',
});

/** A cache as the first version left it: its schema, and its rows with JSON records. */
function firstVersionCache(path: string): void {
  const v1 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
  const insertDate = v1.prepare(
    `INSERT INTO event_dates (id, event_id, date_ms, country_code, currency_code, volatility_rank,
       name, actual, last_updated, record, raw)
     VALUES (@id, @eventId, @date, @countryCode, @currencyCode, @rank, @name, @actual,
       @lastUpdated, @record, @raw)`,
  );
  for (const e of [hold, whole])
    insertDate.run({
      ...e,
      date: Date.parse(e.dateUtc),
      rank: volatilityRank(e.volatility),
      record: JSON.stringify(e),
      raw: JSON.stringify({ Id: e.id }),
    });
  v1.prepare(
    `INSERT INTO posts (id, culture, published_ms, updated_ms, title, summary, author_name, record, raw)
     VALUES (?, ?, 1, 1, ?, ?, NULL, ?, '{}')`,
  ).run(post.id, post.culture, post.title, post.summary, JSON.stringify(post));
  expect(v1.pragma('user_version', { simple: true })).toBe(1);
  v1.close();
}

describe('migrations 001 → latest', () => {
  it('leave the tables and columns schema.ts declares, as a new cache has them', () => {
    const path = tmp();
    firstVersionCache(path);
    const upgraded = openDatabase(path);
    const fresh = openDatabase(tmp());
    expect(upgraded.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(tablesOf(upgraded)).toEqual(
      Object.fromEntries(Object.entries(EXPECTED).sort(([a], [b]) => a.localeCompare(b))),
    );
    const fts = upgraded.prepare("SELECT name FROM pragma_table_info('posts_fts')").pluck().all();
    expect(fts).toEqual(FTS_COLUMNS);
    expect(schemaOf(upgraded)).toEqual(schemaOf(fresh));
    expect(upgraded.pragma('integrity_check', { simple: true })).toBe('ok');
    upgraded.close();
    fresh.close();
  });

  it('rewrite the old rows as the current code reads them', () => {
    const path = tmp();
    firstVersionCache(path);
    const s = openStore({ path });
    // 005 packed the flags, 009 filled each event's precision
    expect(s.getEventDate(hold.id)).toEqual(hold);
    expect(s.getEventDate(whole.id)).toEqual(whole);
    expect(s.eventPrecision(['ecb', 'nfp'])).toEqual(
      new Map([
        ['ecb', 2],
        ['nfp', 0],
      ]),
    );
    // 008 made the title and summary plain text; 004/006/008 indexed the decoded text
    const stored = s.getPost('p1', 'en-US');
    expect(stored?.title).toBe('S&P 500 – Fed’s pause');
    expect(stored?.summary).toBe('Stocks & bonds');
    expect(s.searchPosts({ query: 'pause' }).map((h) => h.id)).toEqual(['p1']);
    const hits = s.searchPosts({ query: 'gap' });
    expect(hits.map((h) => h.id)).toEqual(['p1']);
    expect(hits[0]?.snippetHtml).toContain('Fed’s view — a €5bn <mark>gap</mark>…');
    expect(s.searchPosts({ query: 'rsquo' })).toEqual([]);
    s.close();
  });
});
