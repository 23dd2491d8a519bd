/**
 * The cache's tables as TypeScript types: one interface per table, its columns with the
 * types SQLite hands back (INTEGER → number, REAL → number, TEXT → string, NULL → null).
 * Every query's row type is derived from these, so a column and its type are written once.
 */
import type { AlertKind } from '../../shared/domain.js';

export interface EventsTable {
  id: string;
  name: string;
  country_code: string;
  currency_code: string;
  category_id: string | null;
  volatility: string;
  raw: string;
}

export interface CategoriesTable {
  id: string;
  name: string;
}

export interface EventDatesTable {
  id: string;
  event_id: string;
  date_ms: number;
  date_utc: string;
  period_date_utc: string | null;
  period_type: string | null;
  actual: number | null;
  revised: number | null;
  consensus: number | null;
  ratio_deviation: number | null;
  previous: number | null;
  /** 1 better, 0 worse, null unknown. */
  better: number | null;
  name: string;
  country_code: string;
  currency_code: string;
  unit: string | null;
  potency: string | null;
  volatility: string;
  volatility_rank: number;
  /** The five booleans packed (see event-date-row.ts). */
  flags: number;
  last_updated: number;
  raw: string;
}

/** The most decimals an event's cached figures print with (migration 009). */
export interface EventPrecisionTable {
  event_id: string;
  decimals: number;
}

export interface PostsTable {
  pk: number;
  id: string;
  culture: string;
  published_ms: number;
  updated_ms: number;
  title: string;
  summary: string | null;
  author_name: string | null;
  /** The Post record as JSON. */
  record: string;
  raw: string;
  read: number;
}

/** FTS5 table keyed by posts.pk (its rowid): the HTML-stripped text. */
export interface PostsFtsTable {
  title: string;
  summary: string;
  body: string;
}

export interface TombstonesTable {
  kind: 'eventDate' | 'post';
  id: string;
  culture: string;
  last_updated: number;
  deleted_at: number;
}

export interface NotificationsAppliedTable {
  key: string;
  applied_at: number;
}

export interface SyncStateTable {
  key: string;
  value: string;
}

export interface AlertsTable {
  id: number;
  dedup_key: string;
  kind: AlertKind;
  title: string;
  body: string;
  created_at: number;
  read: number;
  /** AlertTarget as JSON. */
  target: string;
  /** 1 for a print first seen after the late window. */
  late: number;
  /** AlertReceipt as JSON, or null (alerts that are not about a print). */
  receipt: string | null;
}

/** The position of `K` in the tuple `C`, as a literal type. */
type IndexOf<C extends readonly unknown[], K, Seen extends unknown[] = []> = C extends readonly [
  infer Head,
  ...infer Rest,
]
  ? Head extends K
    ? Seen['length']
    : IndexOf<Rest, K, [...Seen, Head]>
  : never;

/** The raw (array) row of a SELECT of columns `C` of table `T`: position i has column i's type. */
export type RowOf<T, C extends readonly (keyof T)[]> = {
  -readonly [I in keyof C]: C[I] extends keyof T ? T[C[I]] : never;
};

/**
 * A SELECT list for raw (array) reads, which skip building row objects (measured faster on
 * the calendar window): the SQL text, the row type, and each column's position by name, so
 * a mapper reads `row[at.flags]` typed as the `flags` column whatever the order.
 */
export interface ColumnList<T, C extends readonly (keyof T & string)[]> {
  readonly sql: string;
  readonly at: { readonly [K in C[number]]: IndexOf<C, K> };
  /** Type only: the row a raw statement of this list returns. */
  readonly row?: RowOf<T, C>;
}

export const columnsOf =
  <T>() =>
  <const C extends readonly (keyof T & string)[]>(...names: C): ColumnList<T, C> => ({
    sql: names.join(', '),
    at: Object.fromEntries(names.map((n, i) => [n, i])) as ColumnList<T, C>['at'],
  });

/** The row type of a ColumnList. */
export type RowOfList<L> = L extends ColumnList<infer T, infer C> ? RowOf<T, C> : never;
