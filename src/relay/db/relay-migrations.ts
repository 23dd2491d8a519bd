/**
 * Every table of the relay database (relay.db), as numbered migrations run by the shared
 * runner (src/node/sqlite/migrations.ts). Migration 1 is the event log every relay since
 * numbering has. Relays before this list created the users, calendar-feed and admin tables
 * outside it (CREATE TABLE IF NOT EXISTS at open), so migrations 2–4 adopt such a table
 * when it is already there — after checking it has the columns this code reads — and
 * create it otherwise. Add a migration at the end; never edit one that shipped.
 */
import type Database from 'better-sqlite3';
import type { Migration } from '../../node/sqlite/migrations.js';
import { allRows, rowMapper } from '../../node/sqlite/rows.js';
import { z } from 'zod';

const COLUMN = rowMapper('a table column', { name: z.string() });

/** Creates the tables unless they exist; then every table must have the listed columns. */
function adoptOrCreate(ddl: string, columns: Record<string, readonly string[]>) {
  return (db: Database.Database): void => {
    db.exec(ddl);
    for (const [table, wanted] of Object.entries(columns)) {
      const info = allRows(db.prepare('SELECT name FROM pragma_table_info(?)'), COLUMN, table);
      const have = new Set(info.map((c) => c.name));
      const missing = wanted.filter((c) => !have.has(c));
      if (missing.length > 0)
        throw new Error(`the existing table ${table} has no column ${missing.join(', ')}`);
    }
  };
}

export const RELAY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log',
    up: `CREATE TABLE IF NOT EXISTS events (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       received_at INTEGER NOT NULL,
       type TEXT NOT NULL,
       body BLOB NOT NULL,
       headers TEXT NOT NULL
     );
     CREATE INDEX IF NOT EXISTS events_received ON events(received_at);
     CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`,
  },
  {
    version: 2,
    name: 'users',
    up: adoptOrCreate(
      `CREATE TABLE IF NOT EXISTS relay_users (
         name TEXT PRIMARY KEY,
         token_hash TEXT NOT NULL UNIQUE,
         created_at INTEGER NOT NULL,
         last_seen_at INTEGER,
         revoked_at INTEGER
       );`,
      { relay_users: ['name', 'token_hash', 'created_at', 'last_seen_at', 'revoked_at'] },
    ),
  },
  {
    version: 3,
    name: 'calendar feed',
    up: adoptOrCreate(
      `CREATE TABLE IF NOT EXISTS calendar_watchlists (
         user TEXT PRIMARY KEY,
         event_ids TEXT NOT NULL,
         updated_at INTEGER NOT NULL
       );
       CREATE TABLE IF NOT EXISTS calendar_feed_tokens (
         user TEXT PRIMARY KEY,
         nonce TEXT NOT NULL,
         token_hash TEXT NOT NULL UNIQUE,
         created_at INTEGER NOT NULL,
         -- The user's own created_at when the feed was made: a user revoked and added again
         -- gets a new feed, never the old (possibly shared) URL back.
         user_created_at INTEGER
       );`,
      {
        calendar_watchlists: ['user', 'event_ids', 'updated_at'],
        calendar_feed_tokens: ['user', 'nonce', 'token_hash', 'created_at', 'user_created_at'],
      },
    ),
  },
  {
    version: 4,
    name: 'desk admins',
    up: adoptOrCreate(
      `CREATE TABLE IF NOT EXISTS relay_admins (
         name TEXT PRIMARY KEY,
         token_hash TEXT NOT NULL UNIQUE,
         created_at INTEGER NOT NULL,
         revoked_at INTEGER
       );`,
      { relay_admins: ['name', 'token_hash', 'created_at', 'revoked_at'] },
    ),
  },
];
