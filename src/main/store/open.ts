/** Open (or create) the cache database: version and damage checks, pragmas, migrations. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  MigrationFailedError,
  NewerSchemaError,
  checkSchemaVersion,
  migrate,
  type Migration,
} from '../../node/sqlite/migrations.js';
import { StoreError } from '../errors.js';
import { messageOf } from '../../shared/error-message.js';
import { MIGRATIONS } from './migrations/index.js';

export interface OpenOptions {
  /** Path to a better_sqlite3.node built for another ABI (the Electron build). */
  nativeBinding?: string;
  migrations?: Migration[];
  /**
   * Run `PRAGMA quick_check` before using an existing file. Off by default: it reads the
   * whole file (seconds for a large cache), while header and schema damage are caught anyway.
   */
  quickCheck?: boolean;
}

const damaged = (path: string, detail: string) =>
  new StoreError(
    `The cache database at ${path} is damaged: ${detail}. Move it aside (Macrobell will rebuild the cache from the service); your settings and keys are not in it.`,
    'damaged',
    path,
  );

/** The file's schema version; a file from a newer Macrobell is refused untouched. */
function checkedVersion(db: Database.Database, migrations: Migration[], path: string): number {
  try {
    return checkSchemaVersion(db, migrations);
  } catch (err) {
    if (!(err instanceof NewerSchemaError)) throw err;
    throw new StoreError(
      `The cache database was written by a newer version of Macrobell (schema ${err.found}, this version understands ${err.known}): ${path}. Update Macrobell or choose another data folder.`,
      'newer_version',
      path,
    );
  }
}

export function openDatabase(path: string, opts: OpenOptions = {}): Database.Database {
  const migrations = opts.migrations ?? MIGRATIONS;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  } catch (err) {
    throw new StoreError(
      `Macrobell could not open its cache database at ${path}: ${messageOf(err)}`,
      'cannot_open',
      path,
    );
  }
  try {
    // Everything up to the migrations only reads, so a file we refuse is left as it was.
    db.pragma('busy_timeout = 5000');
    const version = checkedVersion(db, migrations, path);
    // Reading the schema catches a file that is not SQLite or whose header is damaged.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    if (version > 0 && opts.quickCheck) {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw damaged(path, String(check));
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    try {
      migrate(db, migrations);
    } catch (err) {
      // Rolled back: the file stays at the last version that applied cleanly.
      if (!(err instanceof MigrationFailedError)) throw err;
      throw new StoreError(
        `Macrobell could not upgrade its cache database at ${path} to ${err.message}. Move it aside (Macrobell will rebuild the cache from the service).`,
        'cannot_open',
        path,
      );
    }
    return db;
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw damaged(path, messageOf(err));
  }
}
