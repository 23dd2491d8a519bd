/** Open (or create) the cache database: pragmas, integrity, migrations. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { StoreError } from './errors.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export function openDatabase(
  path: string,
  opts: { nativeBinding?: string; migrations?: Migration[] } = {},
): Database.Database {
  const migrations = opts.migrations ?? MIGRATIONS;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  } catch (err) {
    throw new StoreError(
      `Macrobell could not open its cache database at ${path}: ${(err as Error).message}`,
      'cannot_open',
      path,
    );
  }
  try {
    // Read the version before anything writes to the file (WAL switch included).
    const version = db.pragma('user_version', { simple: true }) as number;
    const known = migrations.at(-1)?.version ?? 0;
    if (version > known) {
      throw new StoreError(
        `The cache database at ${path} was written by a newer version of Macrobell (schema ${version}, this version understands ${known}). Update Macrobell or choose another data folder.`,
        'newer_version',
        path,
      );
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (version > 0) {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(String(check));
    }
    for (const m of migrations) {
      if (m.version <= version) continue;
      db.transaction(() => {
        if (typeof m.up === 'string') db.exec(m.up);
        else m.up(db);
        db.pragma(`user_version = ${m.version}`);
      })();
    }
    return db;
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw new StoreError(
      `The cache database at ${path} is damaged (${(err as Error).message}). Move it aside — Macrobell will rebuild the cache from the service; your settings and keys are not in it.`,
      'damaged',
      path,
    );
  }
}
