/** Offline news search (FTS5, HTML stripped) and the alert history. */
export default {
  version: 2,
  name: 'search_and_alerts',
  up: `
    -- Keyed by posts.pk; holds the HTML-stripped text (snippets are escaped on the way out).
    CREATE VIRTUAL TABLE posts_fts USING fts5(
      title, summary, body,
      tokenize='unicode61 remove_diacritics 2'
    );

    CREATE TABLE alerts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      dedup_key TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      read INTEGER NOT NULL DEFAULT 0,
      target TEXT NOT NULL
    );
    CREATE INDEX alerts_created ON alerts(created_at DESC);
    CREATE INDEX alerts_unread ON alerts(read) WHERE read = 0;
  `,
};
