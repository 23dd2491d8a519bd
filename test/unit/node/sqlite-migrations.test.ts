/**
 * The one migration runner (src/node/sqlite/migrations.ts) on real SQLite files: numbered
 * migrations applied in order and recorded in user_version, a failing one rolled back with
 * the file left at the last good version, a file from newer code refused untouched.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MigrationFailedError,
  NewerSchemaError,
  checkSchemaVersion,
  migrate,
  type Migration,
} from '../../../src/node/sqlite/migrations.js';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

function tempDb(): { db: Database.Database; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'mb-migrate-')), 'x.db');
  const db = new Database(path);
  open.push(db);
  return { db, path };
}

const notes: Migration = { version: 1, name: 'notes', up: 'CREATE TABLE notes (text TEXT)' };
const tags: Migration = {
  version: 2,
  name: 'tags',
  up: (db) => db.exec("ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT 'none'"),
};
const tables = (db: Database.Database) =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((r) => r.name);

describe('the migration runner', () => {
  it('applies each pending migration once, in order, and records the version', () => {
    const { db } = tempDb();
    expect(migrate(db, [notes])).toEqual({ from: 0, to: 1 });
    db.prepare("INSERT INTO notes (text) VALUES ('kept')").run();
    expect(migrate(db, [notes, tags])).toEqual({ from: 1, to: 2 });
    expect(db.prepare('SELECT text, tag FROM notes').all()).toEqual([
      { text: 'kept', tag: 'none' },
    ]);
    expect(migrate(db, [notes, tags])).toEqual({ from: 2, to: 2 });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
  });

  it('rolls a failing migration back and leaves the file at the last version that applied', () => {
    const { db } = tempDb();
    const broken: Migration = {
      version: 2,
      name: 'half done',
      up: 'CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);',
    };
    const err = (() => {
      try {
        migrate(db, [notes, broken]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(MigrationFailedError);
    expect((err as Error).message).toMatch(/^schema 2 \(half done\): no such table: nowhere/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(['notes']);
  });

  it('refuses a file from newer code before writing anything', () => {
    const { db, path } = tempDb();
    db.pragma('user_version = 7');
    const before = readFileSync(path);
    expect(() => checkSchemaVersion(db, [notes, tags])).toThrow(NewerSchemaError);
    expect(() => migrate(db, [notes, tags])).toThrow(
      'schema 7 is newer than this code knows (schema 2)',
    );
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(tables(db)).toEqual([]);
  });

  it('refuses a list with a gap in its numbering (it would skip a schema)', () => {
    const { db } = tempDb();
    expect(() => migrate(db, [notes, { ...tags, version: 3 }])).toThrow(
      'migration "tags" is numbered 3; expected 2',
    );
    expect(tables(db)).toEqual([]);
  });
});
