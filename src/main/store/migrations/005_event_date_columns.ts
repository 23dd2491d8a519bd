/**
 * Every field of an event date in its own column, so reads build records without parsing
 * JSON (the calendar window, the apply path), and a window index that covers them all. The derived `record` JSON goes; the API's
 * `raw` JSON (unknown fields included) stays. The table is rebuilt so the small columns
 * come before `raw` and the dropped column leaves no space behind.
 */
import { FLAGS_FROM_JSON_V1 } from './frozen/event-flags.js';

const j = (path: string) => `json_extract(record, '$.${path}')`;

export default {
  version: 5,
  name: 'event_date_columns',
  up: `
    CREATE TABLE event_dates_new (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL,
      date_ms INTEGER NOT NULL,
      date_utc TEXT NOT NULL,
      period_date_utc TEXT,
      period_type TEXT,
      actual REAL,
      revised REAL,
      consensus REAL,
      ratio_deviation REAL,
      previous REAL,
      better INTEGER,
      name TEXT NOT NULL,
      country_code TEXT NOT NULL,
      currency_code TEXT NOT NULL,
      unit TEXT,
      potency TEXT,
      volatility TEXT NOT NULL,
      volatility_rank INTEGER NOT NULL,
      flags INTEGER NOT NULL,
      last_updated INTEGER NOT NULL,
      raw TEXT NOT NULL
    );
    INSERT INTO event_dates_new
      SELECT id, event_id, date_ms,
        coalesce(${j('dateUtc')}, strftime('%Y-%m-%dT%H:%M:%fZ', date_ms / 1000.0, 'unixepoch')), ${j('periodDateUtc')}, ${j('periodType')},
        actual, revised, consensus, ${j('ratioDeviation')}, previous, ${j('isBetterThanExpected')},
        name, country_code, currency_code, ${j('unit')}, ${j('potency')}, volatility,
        volatility_rank, ${FLAGS_FROM_JSON_V1('record')}, last_updated, raw
      FROM event_dates;
    DROP TABLE event_dates;
    ALTER TABLE event_dates_new RENAME TO event_dates;
    CREATE INDEX event_dates_event ON event_dates(event_id, date_ms);
    -- Covers every column but raw: a calendar window reads consecutive index pages instead
    -- of one table page per row (rows of a week are scattered across the table).
    CREATE INDEX event_dates_window ON event_dates(
      date_ms, id, last_updated, volatility_rank, country_code, currency_code, event_id,
      date_utc, period_date_utc, period_type, actual, revised, consensus, ratio_deviation,
      previous, better, name, unit, potency, volatility, flags);
    CREATE INDEX event_dates_pending ON event_dates(date_ms, volatility_rank) WHERE actual IS NULL;
  `,
};
