/**
 * The cache behind a typed interface: the rest of the app never writes SQL. Every record
 * keeps the raw JSON as received beside the columns the queries index. All synchronous
 * (better-sqlite3); statements are prepared once. This class only wires the table groups
 * (one module each) and keeps the one public API the app and the tests use.
 */
import type Database from 'better-sqlite3';
import type {
  AlertRecord,
  AlertSurface,
  FeedLatency,
  CalendarEvent,
  Category,
  EventDate,
  Post,
  PostSummary,
  SearchHit,
} from '../../shared/domain.js';
import type { AlertsToday } from '../../shared/desk-alerts-today.js';
import type { NewAlert } from '../alerts/port.js';
import { Alerts } from './alerts.js';
import { IdleCheckpoint } from './checkpoint.js';
import type { EventDateFilter } from './event-date-query.js';
import { EventDates } from './event-dates.js';
import { Events } from './events.js';
import { Maintenance } from './maintenance.js';
import { openDatabase, type OpenOptions } from './open.js';
import { PostSearch } from './post-search.js';
import { Posts } from './posts.js';
import { Statements } from './statements.js';
import { SyncState } from './sync-state.js';
import { Tombstones, type TombstoneKind } from './tombstones.js';

export interface StoreOptions {
  /** The clock for stored times (applied_at, deleted_at) and "past" (tests inject one). */
  now?: () => number;
}

export class Store {
  private readonly checkpoints: IdleCheckpoint;
  private readonly tombstones: Tombstones;
  private readonly events: Events;
  private readonly eventDates: EventDates;
  private readonly posts: Posts;
  private readonly postSearch: PostSearch;
  private readonly syncState: SyncState;
  private readonly alerts: Alerts;
  private readonly maintenance: Maintenance;
  private readonly now: () => number;
  private lastWrite = 0;

  constructor(
    readonly db: Database.Database,
    readonly path: string,
    opts: StoreOptions = {},
  ) {
    const now = (this.now = opts.now ?? Date.now);
    const q = new Statements(db);
    const tx = <T>(fn: () => T): T => this.transaction(fn);
    this.checkpoints = new IdleCheckpoint(db);
    this.tombstones = new Tombstones(q, now);
    this.events = new Events(q);
    this.eventDates = new EventDates(q, this.tombstones, now);
    this.posts = new Posts(q, this.tombstones, now);
    this.postSearch = new PostSearch(q, db);
    this.syncState = new SyncState(q, now);
    this.alerts = new Alerts(q, tx);
    this.maintenance = new Maintenance(q, path, tx, now);
  }

  transaction<T>(fn: () => T): T {
    const result = this.db.transaction(fn)();
    this.checkpoints.wrote();
    this.lastWrite = this.now();
    return result;
  }

  /** When the last transaction committed (0: none since opening); the prune waits for quiet. */
  lastWriteAt(): number {
    return this.lastWrite;
  }

  isOpen(): boolean {
    return this.db.open;
  }

  // ── events ────────────────────────────────────────────────────────────────
  upsertEvent(e: CalendarEvent, raw: unknown): void {
    this.events.upsert(e, raw);
  }
  getEvent(id: string): CalendarEvent | null {
    return this.events.get(id);
  }
  upsertCategories(list: Category[]): void {
    this.events.upsertCategories(list);
  }
  listCategories(): Category[] {
    return this.events.listCategories();
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
    opts?: { provisional?: boolean },
  ): { previous: EventDate | null; written: boolean; overrode: boolean; unconfirmed: boolean } {
    return this.eventDates.upsert(ed, raw, current, opts);
  }
  /** A notification brought this record's values or deletion, and no read of the service decided yet. */
  isProvisional(id: string): boolean {
    return this.eventDates.provisionalSince(id) !== null;
  }
  hasEventDate(id: string): boolean {
    return this.eventDates.has(id);
  }
  getEventDate(id: string): EventDate | null {
    return this.eventDates.get(id);
  }
  /** The record and the API's JSON as received, in one read (the apply path merges both). */
  getEventDateWithRaw(id: string): { eventDate: EventDate; raw: unknown } | null {
    return this.eventDates.getWithRaw(id);
  }
  getEventDateRaw(id: string): unknown {
    return this.eventDates.getRaw(id);
  }
  deleteEventDate(
    id: string,
    lastUpdated: number,
    opts?: { provisional?: boolean },
  ): EventDate | null {
    return this.eventDates.delete(id, lastUpdated, opts);
  }
  isTombstoned(kind: TombstoneKind, id: string, lastUpdated: number, culture = ''): boolean {
    return this.tombstones.has(kind, id, lastUpdated, culture);
  }
  /** A window of the calendar, by date. */
  listEventDates(q: EventDateFilter): EventDate[] {
    return this.eventDates.list(q);
  }
  /** The most decimals each event's cached figures print with ("1.90%" for a hold at 1.9). */
  eventPrecision(eventIds: readonly string[]): Map<string, number> {
    return this.eventDates.precision(eventIds);
  }
  /** The first occurrence at or after `after` that has not printed yet. */
  nextRelease(q: { after: string; volatilities?: string[] }): EventDate | null {
    return this.eventDates.nextRelease(q);
  }
  /** Occurrences in a window: of the given events when `eventIds` is set, else at or above an impact. */
  upcoming(q: {
    from: string;
    to: string;
    minVolatility?: string;
    eventIds?: string[];
  }): EventDate[] {
    return this.eventDates.upcoming(q);
  }
  /** Past occurrences that printed, newest first. */
  eventHistory(eventId: string, opts: { limit?: number } = {}): EventDate[] {
    return this.eventDates.history(eventId, opts);
  }
  eventOccurrences(eventId: string, q: { from: string; to: string }): EventDate[] {
    return this.eventDates.occurrences(eventId, q);
  }

  // ── posts ────────────────────────────────────────────────────────────────
  upsertPost(p: Post, raw: unknown): { previous: Post | null; written: boolean } {
    return this.posts.upsert(p, raw);
  }
  getPost(id: string, culture: string): Post | null {
    return this.posts.get(id, culture);
  }
  deletePost(
    id: string,
    culture: string,
    lastUpdated: number,
    opts?: { provisional?: boolean },
  ): Post | null {
    return this.posts.delete(id, culture, lastUpdated, opts);
  }
  listPosts(q: { culture?: string; page: number; pageSize: number }): {
    items: PostSummary[];
    total: number;
  } {
    return this.posts.list(q);
  }
  markPostRead(id: string, culture: string): void {
    this.posts.markRead(id, culture);
  }
  /** Full-text search, best first, with safe highlighted snippets. */
  searchPosts(q: { query: string; culture?: string; limit?: number }): SearchHit[] {
    return this.postSearch.search(q);
  }

  // ── idempotency & sync state ────────────────────────────────────────────
  markNotificationApplied(key: string): boolean {
    return this.syncState.markNotificationApplied(key);
  }
  getSyncState(key: string): string | null {
    return this.syncState.get(key);
  }
  setSyncState(key: string, value: string): void {
    this.syncState.set(key, value);
  }

  // ── alerts ───────────────────────────────────────────────────────────────
  /** Records an alert unless one with the same dedup key exists (then null). */
  insertAlert(a: NewAlert): AlertRecord | null {
    return this.alerts.insert(a);
  }
  /** The alert under `dedupKey` rewritten as `a`, its id kept (null: none such). */
  replaceAlert(dedupKey: string, a: NewAlert): AlertRecord | null {
    return this.alerts.replace(dedupKey, a);
  }
  listAlerts(q: { limit?: number; unreadOnly?: boolean } = {}): AlertRecord[] {
    return this.alerts.list(q);
  }
  markAlertsRead(ids?: number[]): void {
    this.alerts.markRead(ids);
  }
  /** The notification carrying these alerts went out to the hosts. */
  markAlertsSent(ids: number[], at: number): void {
    this.alerts.markReceipt(ids, 'sentAt', at);
  }
  /** A surface acknowledged the notification carrying these alerts (the first one counts). */
  markAlertsShown(ids: number[], at: number, surface: AlertSurface): void {
    this.alerts.markShown(ids, at, surface);
  }
  /** No surface acknowledged it in time: the host's fallback fired. */
  markAlertsFallback(ids: number[], at: number): void {
    this.alerts.markReceipt(ids, 'fallbackAt', at);
  }
  /** Print → alert percentiles over the last day, by path. */
  alertLatency(now: number): FeedLatency[] {
    return this.alerts.latency(now);
  }
  /** Prints alerted today (UTC), for the desk's presence reports. */
  alertsToday(now: number): AlertsToday {
    return this.alerts.today(now);
  }
  countUnreadAlerts(): number {
    return this.alerts.countUnread();
  }

  // ── maintenance ──────────────────────────────────────────────────────────
  counts(): { eventDates: number; posts: number; events: number } {
    return this.maintenance.counts();
  }
  sizeBytes(): number {
    return this.maintenance.sizeBytes();
  }
  /** Forget cached data (it will be fetched again); the alert history stays. */
  clearCache(): void {
    this.maintenance.clearCache();
  }
  /** Forget idempotency keys and tombstones older than `olderThanMs`. */
  prune(opts: { olderThanMs: number }): { notifications: number; tombstones: number } {
    return this.maintenance.prune(opts);
  }

  close(): void {
    this.checkpoints.stop();
    if (this.db.open) this.db.close();
  }
}

export function openStore(
  opts: { path: string } & Pick<OpenOptions, 'nativeBinding' | 'quickCheck'> & StoreOptions,
): Store {
  const { path, now, ...rest } = opts;
  return new Store(openDatabase(path, rest), path, { now });
}
