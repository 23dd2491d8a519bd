/** Calendar, posts, sync state and idempotency keys. */
export default {
  version: 1,
  name: 'initial',
  up: `
    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      country_code TEXT NOT NULL,
      currency_code TEXT NOT NULL,
      category_id TEXT,
      volatility TEXT NOT NULL,
      raw TEXT NOT NULL
    );
    CREATE INDEX events_category ON events(category_id);

    -- No foreign key to events: occurrences often arrive before their event.
    CREATE TABLE event_dates (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL,
      date_ms INTEGER NOT NULL,
      country_code TEXT NOT NULL,
      currency_code TEXT NOT NULL,
      volatility_rank INTEGER NOT NULL,
      name TEXT NOT NULL,
      actual REAL,
      last_updated INTEGER NOT NULL,
      record TEXT NOT NULL,
      raw TEXT NOT NULL
    );
    CREATE INDEX event_dates_date ON event_dates(date_ms);
    CREATE INDEX event_dates_event ON event_dates(event_id, date_ms);

    CREATE TABLE categories (id TEXT PRIMARY KEY, name TEXT NOT NULL);

    CREATE TABLE posts (
      pk INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      culture TEXT NOT NULL,
      published_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL,
      title TEXT NOT NULL,
      summary TEXT,
      author_name TEXT,
      record TEXT NOT NULL,
      raw TEXT NOT NULL,
      read INTEGER NOT NULL DEFAULT 0,
      UNIQUE (id, culture)
    );
    CREATE INDEX posts_culture_published ON posts(culture, published_ms DESC);
    CREATE INDEX posts_published ON posts(published_ms DESC);

    CREATE TABLE tombstones (
      kind TEXT NOT NULL,
      id TEXT NOT NULL,
      culture TEXT NOT NULL DEFAULT '',
      last_updated INTEGER NOT NULL,
      deleted_at INTEGER NOT NULL,
      PRIMARY KEY (kind, id, culture)
    );

    CREATE TABLE notifications_applied (key TEXT PRIMARY KEY, applied_at INTEGER NOT NULL);
    CREATE INDEX notifications_applied_at ON notifications_applied(applied_at);

    CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
};
