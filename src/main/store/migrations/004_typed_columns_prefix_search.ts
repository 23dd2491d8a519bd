/**
 * Typed columns (volatility, consensus, previous, revised), indexes on events, a covering
 * window index for the calendar, a
 * partial index for "next release", and a search index with prefix tables so the
 * prefix-matched last word of a query does not merge every term that starts with it.
 */
import type Database from 'better-sqlite3';
import { searchColumnsV1 } from './frozen/search-columns.js';

export default {
  version: 4,
  name: 'typed_columns_prefix_search',
  up(db: Database.Database): void {
    db.exec(`
      CREATE INDEX events_name ON events(name);
      CREATE INDEX events_country ON events(country_code);
      CREATE INDEX events_currency ON events(currency_code);
      CREATE INDEX events_volatility ON events(volatility);

      ALTER TABLE event_dates ADD COLUMN volatility TEXT NOT NULL DEFAULT 'NONE';
      ALTER TABLE event_dates ADD COLUMN consensus REAL;
      ALTER TABLE event_dates ADD COLUMN previous REAL;
      ALTER TABLE event_dates ADD COLUMN revised REAL;
      UPDATE event_dates SET
        volatility = coalesce(json_extract(record, '$.volatility'), 'NONE'),
        consensus = json_extract(record, '$.consensus'),
        previous = json_extract(record, '$.previous'),
        revised = json_extract(record, '$.revised');

      -- The calendar window is answered from this index alone (ids to look up, in order,
      -- with impact, country, currency and event filters evaluated inside it).
      DROP INDEX event_dates_date;
      CREATE INDEX event_dates_window ON event_dates(
        date_ms, id, last_updated, volatility_rank, country_code, currency_code, event_id);
      CREATE INDEX event_dates_pending ON event_dates(date_ms, volatility_rank) WHERE actual IS NULL;

      DROP TABLE posts_fts;
      CREATE VIRTUAL TABLE posts_fts USING fts5(
        title, summary, body,
        tokenize='unicode61 remove_diacritics 2',
        prefix='2 3 4'
      );
      INSERT INTO posts_fts(posts_fts, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');
    `);
    const insert = db.prepare(
      'INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)',
    );
    // In pages: a statement cannot write while another one on the connection is iterating.
    const page = db.prepare<[number], { pk: number; record: string }>(
      'SELECT pk, record FROM posts WHERE pk > ? ORDER BY pk LIMIT 500',
    );
    let after = 0;
    for (;;) {
      const rows = page.all(after);
      for (const row of rows) insert.run(row.pk, ...searchColumnsV1(JSON.parse(row.record)));
      if (rows.length < 500) break;
      after = rows[rows.length - 1]?.pk ?? after;
    }
  },
};
