/**
 * Rows read through a schema instead of a cast: a query whose columns do not match what the
 * code reads (a renamed column, an aggregate that came back NULL, a TEXT where a number was
 * meant) fails at the read with the query's name and the column, not as a wrong value far
 * away. One mapper per row shape, declared beside the table's queries.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';

/** A row of a query, as SQLite hands it back, checked: `what` names the query in errors. */
export interface RowMapper<R> {
  (row: unknown): R;
  readonly what: string;
}

/** The error a row that does not match its mapper throws. */
export class RowShapeError extends Error {
  constructor(what: string, issues: string) {
    super(`${what}: unexpected row (${issues})`);
    this.name = 'RowShapeError';
  }
}

/** A mapper for rows of `what` with these columns (zod types: z.number(), z.string().nullable()…). */
export function rowMapper<S extends z.ZodRawShape>(
  what: string,
  columns: S,
): RowMapper<z.infer<z.ZodObject<S>>> {
  const schema = z.object(columns);
  const map = (row: unknown) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'row'}: ${i.message}`)
      .join('; ');
    throw new RowShapeError(what, issues);
  };
  return Object.assign(map, { what });
}

/** The one row of `stmt` (undefined when none), checked. */
export function getRow<R>(
  stmt: Database.Statement,
  map: RowMapper<R>,
  ...params: unknown[]
): R | undefined {
  const row: unknown = stmt.get(...params);
  return row === undefined ? undefined : map(row);
}

/** Every row of `stmt`, checked. */
export function allRows<R>(stmt: Database.Statement, map: RowMapper<R>, ...params: unknown[]): R[] {
  return (stmt.all(...params) as unknown[]).map(map);
}

/** A row an aggregate query always returns (count(*), max(…)): missing is a bug, said so. */
export function oneRow<R>(stmt: Database.Statement, map: RowMapper<R>, ...params: unknown[]): R {
  const row = getRow(stmt, map, ...params);
  if (row === undefined) throw new RowShapeError(map.what, 'no row');
  return row;
}
