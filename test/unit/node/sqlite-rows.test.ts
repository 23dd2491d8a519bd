/** Rows read through a mapper: a row that is not the shape the code reads fails at the read, named. */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  RowShapeError,
  allRows,
  getRow,
  oneRow,
  rowMapper,
} from '../../../src/node/sqlite/rows.js';

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL);
    INSERT INTO t VALUES (1, 'a', 1.5), (2, NULL, 2), (3, 'c', NULL);`);
});
afterEach(() => db.close());

const ROW = rowMapper('a t row', { id: z.number(), name: z.string(), score: z.number() });

describe('row mappers', () => {
  it('hands back the rows that match, typed', () => {
    const stmt = db.prepare('SELECT id, name, score FROM t WHERE id = ?');
    expect(getRow(stmt, ROW, 1)).toEqual({ id: 1, name: 'a', score: 1.5 });
    expect(getRow(stmt, ROW, 9)).toBeUndefined();
    const ids = rowMapper('t ids', { id: z.number() });
    expect(allRows(db.prepare('SELECT id FROM t ORDER BY id'), ids)).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
  });

  it('names the query and the column of a row that does not match', () => {
    const stmt = db.prepare('SELECT id, name, score FROM t WHERE id = ?');
    expect(() => getRow(stmt, ROW, 2)).toThrow(RowShapeError);
    expect(() => getRow(stmt, ROW, 2)).toThrow(/^a t row: unexpected row \(name: /);
    expect(() => allRows(db.prepare('SELECT id, name, score FROM t WHERE id <> 2'), ROW)).toThrow(
      /a t row: .*score/,
    );
    // a renamed column is a missing one
    expect(() => getRow(db.prepare('SELECT id, name AS label, score FROM t'), ROW)).toThrow(
      /name: /,
    );
  });

  it('says so when an aggregate returns no row, and checks its NULL', () => {
    const max = rowMapper('the highest id', { id: z.number().nullable() });
    expect(oneRow(db.prepare('SELECT max(id) AS id FROM t WHERE id > ?'), max, 5)).toEqual({
      id: null,
    });
    expect(() => oneRow(db.prepare('SELECT id FROM t WHERE id > 5'), max)).toThrow(
      'the highest id: unexpected row (no row)',
    );
  });
});
