/**
 * The relay database (DATA/relay.db), opened in one place: created 0600, WAL (so `relay
 * users …` works while the relay runs), migrated by the shared runner, and checked for
 * writes. A process opens it once and hands the handle to every SQLite store — the event
 * log, the users, the calendar feed, the desk's admins; the opener closes it last.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  MigrationFailedError,
  NewerSchemaError,
  checkSchemaVersion,
  migrate,
} from '../../node/sqlite/migrations.js';
import { RELAY_MIGRATIONS } from './relay-migrations.js';

export function relayDatabasePath(dataDir: string): string {
  return join(dataDir, 'relay.db');
}

function openError(path: string, err: unknown): Error {
  if (err instanceof NewerSchemaError)
    return new Error(
      `the relay database ${path} is from a newer version of the relay (schema ${err.found}, this relay knows ${err.known}): upgrade the relay or use another data folder`,
    );
  if (err instanceof MigrationFailedError)
    return new Error(`cannot upgrade the relay database ${path} to ${err.message}`);
  return new Error(`cannot use the relay database ${path}: ${(err as Error).message}`);
}

/** Opens (creating 0600) and migrates DATA/relay.db; a clear error for a file it cannot use. */
export function openRelayDatabase(dataDir: string): Database.Database {
  const path = relayDatabasePath(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const fresh = !existsSync(path);
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (err) {
    throw openError(path, err);
  }
  try {
    if (fresh) chmodSync(path, 0o600);
    db.pragma('busy_timeout = 5000');
    // A file from a newer relay is refused before anything is written to it.
    checkSchemaVersion(db, RELAY_MIGRATIONS);
    db.pragma('journal_mode = WAL');
    migrate(db, RELAY_MIGRATIONS);
    // A write probe: a read-only file or directory fails here, not at the first webhook.
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('write_probe', ?)").run(
      Date.now(),
    );
    return db;
  } catch (err) {
    db.close();
    throw openError(path, err);
  }
}
