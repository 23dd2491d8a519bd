/**
 * The one migration runner for every SQLite file we own (the app's cache, the relay's
 * database): numbered migrations recorded in PRAGMA user_version, each applied in its own
 * transaction (a failed one rolls back and leaves the file at the last version that applied
 * cleanly), and a file written by newer code refused before anything is written to it.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  /** 1, 2, 3…: the user_version the file has once this migration is applied. */
  version: number;
  name: string;
  up: string | ((db: Database.Database) => void);
}

/** The file's schema is past every migration this code knows. */
export class NewerSchemaError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`schema ${found} is newer than this code knows (schema ${known})`);
    this.name = 'NewerSchemaError';
  }
}

/** A migration threw; its transaction was rolled back. */
export class MigrationFailedError extends Error {
  constructor(
    readonly migration: Migration,
    cause: unknown,
  ) {
    super(
      `schema ${migration.version} (${migration.name}): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'MigrationFailedError';
  }
}

/** A list must number its migrations 1, 2, 3… with no gap: a gap would skip a schema. */
function checkNumbering(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration "${m.name}" is numbered ${m.version}; expected ${i + 1}`);
  });
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The file's schema version; throws NewerSchemaError for a file from newer code. Reads only. */
export function checkSchemaVersion(
  db: Database.Database,
  migrations: readonly Migration[],
): number {
  checkNumbering(migrations);
  const found = schemaVersion(db);
  if (found > migrations.length) throw new NewerSchemaError(found, migrations.length);
  return found;
}

/** Applies every migration past the file's version, each in its own transaction. */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[],
): { from: number; to: number } {
  const from = checkSchemaVersion(db, migrations);
  for (const m of migrations.slice(from)) {
    try {
      db.transaction(() => {
        if (typeof m.up === 'string') db.exec(m.up);
        else m.up(db);
        db.pragma(`user_version = ${m.version}`);
      })();
    } catch (err) {
      throw new MigrationFailedError(m, err);
    }
  }
  return { from, to: migrations.length };
}
