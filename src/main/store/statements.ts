/**
 * Prepared statements, cached per SQL text and result shape, with the row type each
 * returns. better-sqlite3 hands back `unknown`: the one cast from it to a row type is here.
 */
import type Database from 'better-sqlite3';

/** A statement whose reads return `R` (an object, an array row or a single value). */
export type Query<R> = Database.Statement<unknown[], R>;

export class Statements {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  private cached(shape: 'object' | 'raw' | 'pluck', sql: string): Database.Statement {
    const key = `${shape}:${sql}`;
    let s = this.cache.get(key);
    if (!s) {
      s = this.db.prepare(sql);
      if (shape === 'raw') s.raw();
      else if (shape === 'pluck') s.pluck();
      this.cache.set(key, s);
    }
    return s;
  }

  /** Rows as objects keyed by column name (and statements that return nothing). */
  objects<R = never>(sql: string): Query<R> {
    return this.cached('object', sql) as Query<R>;
  }

  /** Rows as arrays, in SELECT order (no row objects: faster). */
  arrays<R extends unknown[]>(sql: string): Query<R> {
    return this.cached('raw', sql) as Query<R>;
  }

  /** The single column's values (no row objects: faster). */
  values<V>(sql: string): Query<V> {
    return this.cached('pluck', sql) as Query<V>;
  }
}

/** An ISO date → epoch ms; a value that is not a date is refused, not stored as NaN. */
export const ms = (iso: string): number => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`Not a date: ${iso}`);
  return t;
};
