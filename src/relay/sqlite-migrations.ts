/**
 * The relay's own SQLite schema, as numbered migrations (PRAGMA user_version), like the
 * app's store. Migration 1 is the schema every relay before numbering already has, so it
 * is written to be a no-op on those files.
 */
import type Database from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     received_at INTEGER NOT NULL,
     type TEXT NOT NULL,
     body BLOB NOT NULL,
     headers TEXT NOT NULL
   );
   CREATE INDEX IF NOT EXISTS events_received ON events(received_at);
   CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`,
];

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length)
    throw new Error(
      `the relay database is from a newer version (schema ${current}, this relay knows ${MIGRATIONS.length})`,
    );
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
