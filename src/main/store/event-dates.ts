/**
 * Event dates (one release of an event: a date, consensus, actual…): writes that never let
 * an older update win, and the calendar's reads, each built from typed columns.
 */
import type { EventDate } from '../../shared/domain.js';
import { releaseDecimals, volatilityRank } from '../../shared/format.js';
import { eventDateWindowQuery, type EventDateFilter } from './event-date-query.js';
import {
  EVENT_DATE_COLUMNS,
  EVENT_DATE_WITH_RAW,
  LIGHT_UPDATE_EVENT_DATE,
  UPSERT_EVENT_DATE,
  fromRow,
  lightParams,
  lightUpdate,
  sameEventDate,
  toParams,
  type EventDateRow,
  type EventDateWithRawRow,
} from './event-date-row.js';
import type { EventDatesTable, EventPrecisionTable } from './schema.js';
import { ms, type Statements } from './statements.js';
import type { Tombstones } from './tombstones.js';
import { trustedStamp } from './trusted-stamp.js';

const COLS = EVENT_DATE_COLUMNS.sql;
// Each statement's SQL is built once: the statement cache is keyed by it, and a long key
// built on every call would be hashed on every call.
const SELECT_BY_ID = `SELECT ${COLS} FROM event_dates WHERE id = ?`;
const SELECT_WITH_RAW_BY_ID = `SELECT ${EVENT_DATE_WITH_RAW.sql} FROM event_dates WHERE id = ?`;
const NEXT_RELEASE = `SELECT ${COLS} FROM event_dates WHERE date_ms >= @after AND actual IS NULL
  AND volatility_rank IN (SELECT value FROM json_each(@ranks))
  ORDER BY date_ms, id LIMIT 1`;
const UPCOMING_OF_EVENTS = `SELECT ${COLS} FROM event_dates WHERE date_ms >= @from AND date_ms < @to
  AND event_id IN (SELECT value FROM json_each(@ids)) ORDER BY date_ms, id`;
const UPCOMING_BY_IMPACT = `SELECT ${COLS} FROM event_dates WHERE date_ms >= @from AND date_ms < @to
  AND volatility_rank >= @min ORDER BY date_ms, id`;
const HISTORY = `SELECT ${COLS} FROM event_dates WHERE event_id = ? AND date_ms <= ? AND actual IS NOT NULL ORDER BY date_ms DESC LIMIT ?`;
const OCCURRENCES = `SELECT ${COLS} FROM event_dates WHERE event_id = ? AND date_ms >= ? AND date_ms < ? ORDER BY date_ms`;

/** An event's precision only grows: a figure printed with more decimals raises it. */
const RAISE_PRECISION = `INSERT INTO event_precision (event_id, decimals) VALUES (?, ?)
  ON CONFLICT(event_id) DO UPDATE SET decimals = max(decimals, excluded.decimals)`;

/**
 * A value or deletion a notification brought is provisional until the service's read
 * confirms it: that read decides, whatever the stamps say (a forged notification may be
 * stamped "now"). A read this soon after the notification may predate it (the desk
 * gateway keeps an answer for a second), so only a read at least this much later decides.
 */
export const PROVISIONAL_STALE_MS = 2_000;
const provisionalKey = (id: string) => `provisional:eventDate:${id}`;

export class EventDates {
  /** Precisions already stored, so a write only touches event_precision when it raises one. */
  private readonly knownPrecision = new Map<string, number>();

  constructor(
    private readonly q: Statements,
    private readonly tombstones: Tombstones,
    private readonly now: () => number,
  ) {}

  /** Event dates from a query selecting `EVENT_DATE_COLUMNS`. */
  private select(sql: string, ...params: unknown[]): EventDate[] {
    return this.q
      .arrays<EventDateRow>(sql)
      .all(...params)
      .map(fromRow);
  }

  /** A stored stamp that outranks `lastUpdated`: newer, and not from the future. */
  private outranks(stored: number, lastUpdated: number): boolean {
    return stored > lastUpdated && trustedStamp(stored, this.now());
  }

  /** When a notification last brought this record's values or deletion (null: none pending). */
  provisionalSince(id: string): number | null {
    const v = this.q
      .values<string>('SELECT value FROM sync_state WHERE key = ?')
      .get(provisionalKey(id));
    return v === undefined ? null : Number(v);
  }

  private markProvisional(id: string): void {
    this.q
      .objects(
        'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(provisionalKey(id), String(this.now()));
  }

  private confirm(id: string, since: number | null): void {
    if (since !== null)
      this.q.objects('DELETE FROM sync_state WHERE key = ?').run(provisionalKey(id));
  }

  /**
   * Older updates never overwrite newer ones; a newer tombstone keeps a record deleted.
   * A stamp from the future outranks nothing (trusted-stamp.ts), and what a notification
   * brought (`provisional`) outranks nothing the service reads later (PROVISIONAL_STALE_MS):
   * `overrode` says this write replaced such a record or deletion — the service's values
   * coming back; `unconfirmed`, that the stored record was still a notification's word. `current`: the stored record as just read in this same transaction.
   */
  upsert(
    ed: EventDate,
    raw: unknown,
    current?: EventDate | null,
    opts: { provisional?: boolean } = {},
  ): { previous: EventDate | null; written: boolean; overrode: boolean; unconfirmed: boolean } {
    const previous = current === undefined ? this.get(ed.id) : current;
    const since = this.provisionalSince(ed.id);
    // `previous` came from a notification no read of the service has decided yet.
    const unconfirmed = since !== null;
    const unwritten = { previous, written: false, overrode: false, unconfirmed };
    const decides =
      !opts.provisional && since !== null && this.now() - since >= PROVISIONAL_STALE_MS;
    if (previous && !decides && this.outranks(previous.lastUpdated, ed.lastUpdated))
      return unwritten;
    if (!previous && !decides && this.tombstones.has('eventDate', ed.id, ed.lastUpdated))
      return unwritten;
    if (previous && sameEventDate(previous, ed)) {
      if (!opts.provisional) this.confirm(ed.id, since); // the service agrees
      return unwritten;
    }
    const overrode =
      decides ||
      (previous
        ? !trustedStamp(previous.lastUpdated, this.now())
        : this.tombstones.untrusted('eventDate', ed.id));
    const params = toParams(ed, ms(ed.dateUtc), JSON.stringify(raw ?? ed));
    if (previous && lightUpdate(previous, ed))
      this.q.objects(LIGHT_UPDATE_EVENT_DATE).run(lightParams(params));
    else this.q.objects(UPSERT_EVENT_DATE).run(params);
    // A cached row never has a tombstone (deleting writes one and removes the row).
    if (!previous) this.tombstones.clear('eventDate', ed.id);
    if (opts.provisional) this.markProvisional(ed.id);
    else this.confirm(ed.id, since);
    this.notePrecision(ed);
    return { previous, written: true, overrode, unconfirmed };
  }

  private notePrecision(ed: EventDate): void {
    const decimals = releaseDecimals(ed);
    if (!decimals || (this.knownPrecision.get(ed.eventId) ?? 0) >= decimals) return;
    this.q.objects(RAISE_PRECISION).run(ed.eventId, decimals);
    this.knownPrecision.set(ed.eventId, decimals);
  }

  /** The most decimals each event's cached figures print with (events with none are left out). */
  precision(eventIds: readonly string[]): Map<string, number> {
    const rows = this.q
      .arrays<[EventPrecisionTable['event_id'], EventPrecisionTable['decimals']]>(
        'SELECT event_id, decimals FROM event_precision WHERE event_id IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(eventIds));
    return new Map(rows);
  }

  has(id: string): boolean {
    return this.q.values<1>('SELECT 1 FROM event_dates WHERE id = ?').get(id) !== undefined;
  }

  get(id: string): EventDate | null {
    const row = this.q.arrays<EventDateRow>(SELECT_BY_ID).get(id);
    return row ? fromRow(row) : null;
  }

  /** The record and the API's JSON as received, in one read (the apply path merges both). */
  getWithRaw(id: string): { eventDate: EventDate; raw: unknown } | null {
    const row = this.q.arrays<EventDateWithRawRow>(SELECT_WITH_RAW_BY_ID).get(id);
    return row
      ? { eventDate: fromRow(row), raw: JSON.parse(row[EVENT_DATE_WITH_RAW.at.raw]) }
      : null;
  }

  getRaw(id: string): unknown {
    const raw = this.q
      .values<EventDatesTable['raw']>('SELECT raw FROM event_dates WHERE id = ?')
      .get(id);
    return raw === undefined ? null : JSON.parse(raw);
  }

  /** `provisional`: a notification's deletion, undone when the service still lists the record. */
  delete(id: string, lastUpdated: number, opts: { provisional?: boolean } = {}): EventDate | null {
    const previous = this.get(id);
    if (previous && this.outranks(previous.lastUpdated, lastUpdated)) return null;
    this.tombstones.write('eventDate', id, '', lastUpdated);
    if (opts.provisional) this.markProvisional(id);
    else this.confirm(id, this.provisionalSince(id));
    if (!previous) return null;
    this.q.objects('DELETE FROM event_dates WHERE id = ?').run(id);
    return previous;
  }

  /** A window of the calendar, by date. */
  list(q: EventDateFilter): EventDate[] {
    const { sql, params } = eventDateWindowQuery(q);
    return this.select(sql, params);
  }

  /** The first occurrence at or after `after` that has not printed yet. */
  nextRelease(q: { after: string; volatilities?: string[] }): EventDate | null {
    const ranks = q.volatilities?.length
      ? [...new Set(q.volatilities.map(volatilityRank))]
      : [0, 1, 2, 3];
    const [next] = this.select(NEXT_RELEASE, { after: ms(q.after), ranks: JSON.stringify(ranks) });
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
      return this.select(UPCOMING_OF_EVENTS, { ...range, ids: JSON.stringify(q.eventIds) });
    }
    return this.select(UPCOMING_BY_IMPACT, {
      ...range,
      min: q.minVolatility ? volatilityRank(q.minVolatility) : 0,
    });
  }

  /** Past occurrences that printed, newest first. */
  history(eventId: string, opts: { limit?: number } = {}): EventDate[] {
    return this.select(HISTORY, eventId, this.now(), opts.limit ?? 36);
  }

  occurrences(eventId: string, q: { from: string; to: string }): EventDate[] {
    return this.select(OCCURRENCES, eventId, ms(q.from), ms(q.to));
  }
}
