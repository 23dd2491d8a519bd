/**
 * The cache behind a typed interface: the rest of the app never writes SQL. Every record
 * keeps the raw JSON as received beside the columns the queries index. All synchronous
 * (better-sqlite3); statements are prepared once.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type {
  AlertKind,
  AlertRecord,
  AlertTarget,
  CalendarEvent,
  Category,
  EventDate,
  Post,
  PostSummary,
  SearchHit,
} from '../../shared/domain.js';
import { volatilityRank } from '../../shared/format.js';
import {
  EVENT_DATE_COLUMNS,
  LIGHT_UPDATE_EVENT_DATE,
  UPSERT_EVENT_DATE,
  fromRow,
  lightParams,
  lightUpdate,
  sameEventDate,
  toParams,
  type EventDateRow,
} from './event-date-row.js';
import { IdleCheckpoint } from './checkpoint.js';
import { escapeHtml, searchColumns, toFtsQuery } from './html-text.js';
import { searchSql } from '../../shared/search-aliases.js';
import { openDatabase, type OpenOptions } from './open.js';
import { buildSnippet, queryMatcher } from './snippet.js';

export interface EventDateFilter {
  from: string;
  to: string;
  volatilities?: string[];
  /** Matches the country code or the currency code. */
  countries?: string[];
  categories?: string[];
  text?: string;
  limit?: number;
}

export interface NewAlert {
  dedupKey: string;
  kind: AlertKind;
  title: string;
  body: string;
  createdAt: number;
  target: AlertTarget;
}

type Row = Record<string, unknown>;

const ms = (iso: string): number => {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`Not a date: ${iso}`);
  return t;
};
/**
 * Search ranks the newest matches only: bm25 over every post that says "inflation" is too
 * slow to type against, and bm25's cost grows with the candidates (250: about 1.5 ms on
 * 50,000 posts, 1,000: about 4 ms). For a trader, the last 250 stories that match are
 * the ones worth ranking; older ones are a page of "newest first" away.
 */
const SEARCH_CANDIDATES = 250;
/** A long last word matches at most this many indexed words that start with it. */
const PREFIX_TERMS = 24;
const COLS = EVENT_DATE_COLUMNS;
// \x01/\x02 mark snippet matches (control characters are stripped from indexed text).
// eslint-disable-next-line no-control-regex
const MARK_OPEN = /\u0001/g;
// eslint-disable-next-line no-control-regex
const MARK_CLOSE = /\u0002/g;

export class Store {
  private readonly stmts = new Map<string, Database.Statement>();
  private readonly checkpoints: IdleCheckpoint;

  constructor(
    readonly db: Database.Database,
    readonly path: string,
  ) {
    // The index's vocabulary, to expand a long last word of a search into real terms.
    this.checkpoints = new IdleCheckpoint(db);
    db.exec(
      'CREATE VIRTUAL TABLE IF NOT EXISTS temp.posts_vocab USING fts5vocab(main, posts_fts, row)',
    );
  }

  /** Statements are prepared once per SQL text and result shape, then reused. */
  private cached(shape: 'object' | 'raw' | 'pluck', sql: string): Database.Statement {
    const key = `${shape}:${sql}`;
    let s = this.stmts.get(key);
    if (!s) {
      s = this.db.prepare(sql);
      if (shape === 'raw') s.raw();
      else if (shape === 'pluck') s.pluck();
      this.stmts.set(key, s);
    }
    return s;
  }

  private stmt(sql: string): Database.Statement {
    return this.cached('object', sql);
  }

  /** A cached statement returning rows as arrays (no row objects: faster). */
  private rows(sql: string): Database.Statement {
    return this.cached('raw', sql);
  }

  /** A cached statement returning its single column's values (no row objects: faster). */
  private column(sql: string): Database.Statement {
    return this.cached('pluck', sql);
  }

  /** Event dates from a query selecting `COLS`. */
  private eventDates(sql: string, ...params: unknown[]): EventDate[] {
    return (this.rows(sql).all(...params) as EventDateRow[]).map(fromRow);
  }

  transaction<T>(fn: () => T): T {
    const result = this.db.transaction(fn)();
    this.checkpoints.wrote();
    return result;
  }

  // ── events ────────────────────────────────────────────────────────────────
  upsertEvent(e: CalendarEvent, raw: unknown): void {
    this.stmt(
      `INSERT INTO events (id, name, country_code, currency_code, category_id, volatility, raw)
       VALUES (@id, @name, @country, @currency, @category, @volatility, @raw)
       ON CONFLICT(id) DO UPDATE SET name=excluded.name, country_code=excluded.country_code,
         currency_code=excluded.currency_code, category_id=excluded.category_id,
         volatility=excluded.volatility, raw=excluded.raw`,
    ).run({
      id: e.id,
      name: e.name,
      country: e.countryCode,
      currency: e.currencyCode,
      category: e.categoryId,
      volatility: e.volatility,
      raw: JSON.stringify({ ...(raw as object), ...e }),
    });
  }

  getEvent(id: string): CalendarEvent | null {
    const row = this.stmt('SELECT raw FROM events WHERE id = ?').get(id) as Row | undefined;
    if (!row) return null;
    const r = JSON.parse(row.raw as string) as CalendarEvent & Record<string, unknown>;
    return {
      id: r.id,
      name: r.name,
      description: r.description ?? null,
      countryCode: r.countryCode,
      currencyCode: r.currencyCode,
      categoryId: r.categoryId ?? null,
      periodType: r.periodType ?? null,
      unit: r.unit ?? null,
      potency: r.potency ?? null,
      volatility: r.volatility,
      isSpeech: Boolean(r.isSpeech),
      isReport: Boolean(r.isReport),
    };
  }

  // ── event dates ──────────────────────────────────────────────────────────
  /**
   * Older updates never overwrite newer ones; a newer tombstone keeps a record deleted.
   * `current`: the stored record as just read in this same transaction (saves a read).
   */
  upsertEventDate(
    ed: EventDate,
    raw: unknown,
    current?: EventDate | null,
  ): { previous: EventDate | null; written: boolean } {
    const previous = current === undefined ? this.getEventDate(ed.id) : current;
    if (previous && previous.lastUpdated > ed.lastUpdated) return { previous, written: false };
    if (!previous && this.isTombstoned('eventDate', ed.id, ed.lastUpdated))
      return { previous, written: false };
    if (previous && sameEventDate(previous, ed)) return { previous, written: false };
    const params = toParams(ed, ms(ed.dateUtc), JSON.stringify(raw ?? ed));
    if (previous && lightUpdate(previous, ed))
      this.stmt(LIGHT_UPDATE_EVENT_DATE).run(lightParams(params));
    else this.stmt(UPSERT_EVENT_DATE).run(params);
    // A cached row never has a tombstone (deleting writes one and removes the row).
    if (!previous)
      this.stmt("DELETE FROM tombstones WHERE kind = 'eventDate' AND id = ? AND culture = ''").run(
        ed.id,
      );
    return { previous, written: true };
  }

  hasEventDate(id: string): boolean {
    return this.column('SELECT 1 FROM event_dates WHERE id = ?').get(id) !== undefined;
  }

  getEventDate(id: string): EventDate | null {
    const row = this.rows(`SELECT ${COLS} FROM event_dates WHERE id = ?`).get(id) as
      EventDateRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** The record and the API's JSON as received, in one read (the apply path merges both). */
  getEventDateWithRaw(id: string): { eventDate: EventDate; raw: unknown } | null {
    const row = this.rows(`SELECT ${COLS}, raw FROM event_dates WHERE id = ?`).get(id) as
      EventDateRow | undefined;
    return row ? { eventDate: fromRow(row), raw: JSON.parse(row[19] as string) } : null;
  }

  getEventDateRaw(id: string): unknown {
    const row = this.stmt('SELECT raw FROM event_dates WHERE id = ?').get(id) as Row | undefined;
    return row ? JSON.parse(row.raw as string) : null;
  }

  deleteEventDate(id: string, lastUpdated: number): EventDate | null {
    const previous = this.getEventDate(id);
    if (previous && previous.lastUpdated > lastUpdated) return null;
    this.tombstone('eventDate', id, '', lastUpdated);
    if (!previous) return null;
    this.stmt('DELETE FROM event_dates WHERE id = ?').run(id);
    return previous;
  }

  isTombstoned(kind: 'eventDate' | 'post', id: string, lastUpdated: number, culture = ''): boolean {
    const row = this.stmt(
      'SELECT last_updated FROM tombstones WHERE kind = ? AND id = ? AND culture = ?',
    ).get(kind, id, culture) as Row | undefined;
    return row !== undefined && (row.last_updated as number) >= lastUpdated;
  }

  private tombstone(kind: string, id: string, culture: string, lastUpdated: number): void {
    this.stmt(
      `INSERT INTO tombstones (kind, id, culture, last_updated, deleted_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(kind, id, culture) DO UPDATE SET last_updated = max(last_updated, excluded.last_updated), deleted_at = excluded.deleted_at`,
    ).run(kind, id, culture, lastUpdated, Date.now());
  }

  /**
   * A window of the calendar, by date. Lists travel as one JSON parameter (json_each), so
   * each filter combination is one cached statement whatever the number of values.
   */
  listEventDates(q: EventDateFilter): EventDate[] {
    const where = ['date_ms >= @from', 'date_ms < @to'];
    const params: Record<string, unknown> = {
      from: ms(q.from),
      to: ms(q.to),
      limit: q.limit ?? 20000,
    };
    if (q.volatilities?.length) {
      params.ranks = JSON.stringify([...new Set(q.volatilities.map(volatilityRank))]);
      where.push('volatility_rank IN (SELECT value FROM json_each(@ranks))');
    }
    if (q.countries?.length) {
      params.countries = JSON.stringify(q.countries);
      where.push(
        '(country_code IN (SELECT value FROM json_each(@countries)) OR currency_code IN (SELECT value FROM json_each(@countries)))',
      );
    }
    if (q.categories?.length) {
      params.categories = JSON.stringify(q.categories);
      where.push(
        'event_id IN (SELECT id FROM events WHERE category_id IN (SELECT value FROM json_each(@categories)))',
      );
    }
    const search = searchSql(q.text ?? ''); // aliases (CPI, NFP…) and "US CPI"
    if (search) {
      where.push(search.sql);
      Object.assign(params, search.params);
    }
    // Answered from the window index alone (it covers every column but raw), in order; each
    // record is built from its columns (cheaper than a cache of parsed records: measured).
    return this.eventDates(
      `SELECT ${COLS} FROM event_dates WHERE ${where.join(' AND ')} ORDER BY date_ms, id LIMIT @limit`,
      params,
    );
  }

  /** The first occurrence at or after `after` that has not printed yet. */
  nextRelease(q: { after: string; volatilities?: string[] }): EventDate | null {
    const ranks = q.volatilities?.length
      ? [...new Set(q.volatilities.map(volatilityRank))]
      : [0, 1, 2, 3];
    const [next] = this.eventDates(
      `SELECT ${COLS} FROM event_dates WHERE date_ms >= @after AND actual IS NULL
         AND volatility_rank IN (SELECT value FROM json_each(@ranks))
       ORDER BY date_ms, id LIMIT 1`,
      { after: ms(q.after), ranks: JSON.stringify(ranks) },
    );
    return next ?? null;
  }

  /** Occurrences in a window: of the given events when `eventIds` is set, else at or above an impact. */
  upcoming(q: {
    from: string;
    to: string;
    minVolatility?: string;
    eventIds?: string[];
  }): EventDate[] {
    const range = { from: ms(q.from), to: ms(q.to) };
    if (q.eventIds) {
      if (q.eventIds.length === 0) return [];
      return this.eventDates(
        `SELECT ${COLS} FROM event_dates WHERE date_ms >= @from AND date_ms < @to
           AND event_id IN (SELECT value FROM json_each(@ids)) ORDER BY date_ms, id`,
        { ...range, ids: JSON.stringify(q.eventIds) },
      );
    }
    return this.eventDates(
      `SELECT ${COLS} FROM event_dates WHERE date_ms >= @from AND date_ms < @to
         AND volatility_rank >= @min ORDER BY date_ms, id`,
      { ...range, min: q.minVolatility ? volatilityRank(q.minVolatility) : 0 },
    );
  }

  /** Past occurrences that printed, newest first. */
  eventHistory(eventId: string, opts: { limit?: number } = {}): EventDate[] {
    return this.eventDates(
      `SELECT ${COLS} FROM event_dates WHERE event_id = ? AND date_ms <= ? AND actual IS NOT NULL ORDER BY date_ms DESC LIMIT ?`,
      eventId,
      Date.now(),
      opts.limit ?? 36,
    );
  }

  eventOccurrences(eventId: string, q: { from: string; to: string }): EventDate[] {
    return this.eventDates(
      `SELECT ${COLS} FROM event_dates WHERE event_id = ? AND date_ms >= ? AND date_ms < ? ORDER BY date_ms`,
      eventId,
      ms(q.from),
      ms(q.to),
    );
  }

  upsertCategories(list: Category[]): void {
    const s = this.stmt(
      'INSERT INTO categories (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name',
    );
    for (const c of list) s.run(c.id, c.name);
  }

  listCategories(): Category[] {
    return this.stmt('SELECT id, name FROM categories ORDER BY name').all() as Category[];
  }

  // ── posts ────────────────────────────────────────────────────────────────
  upsertPost(p: Post, raw: unknown): { previous: Post | null; written: boolean } {
    const previous = this.getPost(p.id, p.culture);
    const updated = ms(p.updateDate ?? p.publicationDate);
    const prevUpdated = previous ? ms(previous.updateDate ?? previous.publicationDate) : 0;
    if (previous && prevUpdated > updated) return { previous, written: false };
    if (!previous && this.isTombstoned('post', p.id, Math.floor(updated / 1000), p.culture))
      return { previous, written: false };
    const record = JSON.stringify(p);
    if (previous && JSON.stringify(previous) === record) return { previous, written: false };
    const row = this.stmt(
      `INSERT INTO posts (id, culture, published_ms, updated_ms, title, summary, author_name, record, raw)
       VALUES (@id, @culture, @published, @updated, @title, @summary, @author, @record, @raw)
       ON CONFLICT(id, culture) DO UPDATE SET published_ms=excluded.published_ms, updated_ms=excluded.updated_ms,
         title=excluded.title, summary=excluded.summary, author_name=excluded.author_name,
         record=excluded.record, raw=excluded.raw
       RETURNING pk`,
    ).get({
      id: p.id,
      culture: p.culture,
      published: ms(p.publicationDate),
      updated,
      title: p.title,
      summary: p.summary,
      author: p.authorName,
      record,
      raw: JSON.stringify(raw ?? p),
    }) as Row;
    this.stmt('DELETE FROM posts_fts WHERE rowid = ?').run(row.pk);
    this.stmt('INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)').run(
      row.pk,
      ...searchColumns(p),
    );
    this.stmt("DELETE FROM tombstones WHERE kind = 'post' AND id = ? AND culture = ?").run(
      p.id,
      p.culture,
    );
    return { previous, written: true };
  }

  getPost(id: string, culture: string): Post | null {
    const row = this.stmt('SELECT record FROM posts WHERE id = ? AND culture = ?').get(
      id,
      culture,
    ) as Row | undefined;
    return row ? (JSON.parse(row.record as string) as Post) : null;
  }

  deletePost(id: string, culture: string, lastUpdated: number): Post | null {
    const row = this.stmt(
      'SELECT pk, updated_ms, record FROM posts WHERE id = ? AND culture = ?',
    ).get(id, culture) as Row | undefined;
    if (row && Math.floor((row.updated_ms as number) / 1000) > lastUpdated) return null;
    this.tombstone('post', id, culture, lastUpdated);
    if (!row) return null;
    this.stmt('DELETE FROM posts_fts WHERE rowid = ?').run(row.pk);
    this.stmt('DELETE FROM posts WHERE pk = ?').run(row.pk);
    return JSON.parse(row.record as string) as Post;
  }

  listPosts(q: { culture?: string; page: number; pageSize: number }): {
    items: PostSummary[];
    total: number;
  } {
    const offset = (q.page - 1) * q.pageSize;
    const where = q.culture ? 'WHERE culture = @culture' : '';
    const rows = this.stmt(
      `SELECT id, culture, title, summary, published_ms, author_name, read FROM posts ${where}
       ORDER BY published_ms DESC, id LIMIT @limit OFFSET @offset`,
    ).all({ culture: q.culture, limit: q.pageSize, offset }) as Row[];
    const total = (
      this.stmt(`SELECT count(*) AS n FROM posts ${where}`).get({ culture: q.culture }) as Row
    ).n as number;
    return {
      total,
      items: rows.map((r) => ({
        id: r.id as string,
        culture: r.culture as string,
        title: r.title as string,
        summary: (r.summary as string | null) ?? null,
        publicationDate: new Date(r.published_ms as number).toISOString(),
        authorName: (r.author_name as string | null) ?? null,
        read: r.read === 1,
      })),
    };
  }

  markPostRead(id: string, culture: string): void {
    this.stmt('UPDATE posts SET read = 1 WHERE id = ? AND culture = ?').run(id, culture);
  }

  /**
   * Full-text search, best first (bm25; title matches weigh most), with safe highlighted
   * snippets. Ranks the newest SEARCH_CANDIDATES matching posts of the culture (FTS rowid
   * order is cache order), then builds snippets for the returned rows only.
   */
  searchPosts(q: { query: string; culture?: string; limit?: number }): SearchHit[] {
    const match = toFtsQuery(
      q.query,
      (prefix) =>
        this.column(
          'SELECT term FROM posts_vocab WHERE term >= @prefix AND term < @prefix || @top ORDER BY term LIMIT @n',
        ).all({ prefix, top: '\u{10FFFF}', n: PREFIX_TERMS }) as string[],
    );
    if (!match) return [];
    const limit = Math.max(1, Math.min(q.limit ?? 50, 500));
    const rows = this.stmt(
      `SELECT p.id, p.culture, p.title, p.published_ms, c.pk FROM (
         SELECT f.rowid AS pk, bm25(posts_fts, 10.0, 4.0, 1.0) AS score
         FROM posts_fts f JOIN posts p ON p.pk = f.rowid
         WHERE posts_fts MATCH @match AND (@culture IS NULL OR p.culture = @culture)
         ORDER BY f.rowid DESC LIMIT @candidates
       ) c JOIN posts p ON p.pk = c.pk
       ORDER BY c.score, p.published_ms DESC LIMIT @limit`,
    ).all({ match, culture: q.culture ?? null, candidates: SEARCH_CANDIDATES, limit }) as Row[];
    const text = this.rows('SELECT title, summary, body FROM posts_fts WHERE rowid = ?');
    const matches = queryMatcher(q.query);
    return rows.map((r) => ({
      id: r.id as string,
      culture: r.culture as string,
      title: r.title as string,
      // The indexed text is plain: escape all of it, then turn the match markers into <mark>.
      snippetHtml: escapeHtml(buildSnippet((text.get(r.pk) as string[] | undefined) ?? [], matches))
        .replace(MARK_OPEN, '<mark>')
        .replace(MARK_CLOSE, '</mark>'),
      publicationDate: new Date(r.published_ms as number).toISOString(),
    }));
  }

  // ── idempotency & sync state ────────────────────────────────────────────
  markNotificationApplied(key: string): boolean {
    return (
      this.stmt('INSERT OR IGNORE INTO notifications_applied (key, applied_at) VALUES (?, ?)').run(
        key,
        Date.now(),
      ).changes === 1
    );
  }

  getSyncState(key: string): string | null {
    const row = this.stmt('SELECT value FROM sync_state WHERE key = ?').get(key) as Row | undefined;
    return row ? (row.value as string) : null;
  }

  setSyncState(key: string, value: string): void {
    this.stmt(
      'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  // ── alerts ───────────────────────────────────────────────────────────────
  /** Records an alert unless one with the same dedup key exists (then null). */
  insertAlert(a: NewAlert): AlertRecord | null {
    const r = this.stmt(
      'INSERT OR IGNORE INTO alerts (dedup_key, kind, title, body, created_at, target) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(a.dedupKey, a.kind, a.title, a.body, a.createdAt, JSON.stringify(a.target));
    if (r.changes === 0) return null;
    return {
      id: Number(r.lastInsertRowid),
      kind: a.kind,
      title: a.title,
      body: a.body,
      createdAt: a.createdAt,
      read: false,
      target: a.target,
    };
  }

  listAlerts(q: { limit?: number; unreadOnly?: boolean } = {}): AlertRecord[] {
    const rows = this.stmt(
      `SELECT id, kind, title, body, created_at, read, target FROM alerts ${q.unreadOnly ? 'WHERE read = 0' : ''}
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(q.limit ?? 200) as Row[];
    return rows.map((r) => ({
      id: r.id as number,
      kind: r.kind as AlertKind,
      title: r.title as string,
      body: r.body as string,
      createdAt: r.created_at as number,
      read: r.read === 1,
      target: JSON.parse(r.target as string) as AlertTarget,
    }));
  }

  markAlertsRead(ids?: number[]): void {
    if (!ids) {
      this.stmt('UPDATE alerts SET read = 1 WHERE read = 0').run();
      return;
    }
    const s = this.stmt('UPDATE alerts SET read = 1 WHERE id = ?');
    this.transaction(() => ids.forEach((id) => s.run(id)));
  }

  countUnreadAlerts(): number {
    return (this.stmt('SELECT count(*) AS n FROM alerts WHERE read = 0').get() as Row).n as number;
  }

  // ── maintenance ──────────────────────────────────────────────────────────
  counts(): { eventDates: number; posts: number; events: number } {
    const n = (table: string) =>
      (this.stmt(`SELECT count(*) AS n FROM ${table}`).get() as Row).n as number;
    return { eventDates: n('event_dates'), posts: n('posts'), events: n('events') };
  }

  sizeBytes(): number {
    const size = (p: string) => {
      try {
        return statSync(p).size;
      } catch {
        return 0;
      }
    };
    return size(this.path) + size(`${this.path}-wal`);
  }

  /** Forget cached data (it will be fetched again); the alert history stays. */
  clearCache(): void {
    this.transaction(() => {
      for (const t of [
        'events',
        'event_dates',
        'categories',
        'posts',
        'posts_fts',
        'tombstones',
        'notifications_applied',
        'sync_state',
      ]) {
        this.db.exec(`DELETE FROM ${t}`);
      }
    });
  }

  prune(opts: { olderThanMs: number }): void {
    const before = Date.now() - opts.olderThanMs;
    this.transaction(() => {
      this.stmt('DELETE FROM notifications_applied WHERE applied_at < ?').run(before);
      this.stmt('DELETE FROM tombstones WHERE deleted_at < ?').run(before);
    });
  }

  close(): void {
    this.checkpoints.stop();
    if (this.db.open) this.db.close();
  }
}

export function openStore(
  opts: { path: string } & Pick<OpenOptions, 'nativeBinding' | 'quickCheck'>,
): Store {
  const { path, ...rest } = opts;
  return new Store(openDatabase(path, rest), path);
}
