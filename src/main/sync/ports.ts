/**
 * What the sync engine needs from its neighbours, stated narrowly so each can be
 * replaced: the SQLite store (src/main/store), the API clients (src/main/api) and the
 * alerts engine (src/main/alerts) satisfy these structurally.
 */
import type { ChangeHop } from '../alerts/engine.js';
import type {
  AlertRecord,
  CalendarEvent,
  Category,
  DomainChange,
  EventDate,
  Post,
} from '../../shared/domain.js';
import { collectionRead, NotFoundError } from '../../node/service/errors.js';

export interface Raw<T> {
  value: T;
  raw: unknown;
}

export interface SyncStore {
  transaction<T>(fn: () => T): T;
  upsertEvent(e: CalendarEvent, raw: unknown): void;
  getEvent(id: string): CalendarEvent | null;
  /** `current`: the stored record as just read in the same transaction (saves a read). */
  /** `provisional`: a notification brought it (the service's next read decides). */
  upsertEventDate(
    ed: EventDate,
    raw: unknown,
    current?: EventDate | null,
    opts?: { provisional?: boolean },
  ): { previous: EventDate | null; written: boolean; overrode?: boolean; unconfirmed?: boolean };
  /** Values or a deletion a notification brought that no read of the service decided yet. */
  isProvisional?(id: string): boolean;
  getEventDate(id: string): EventDate | null;
  hasEventDate(id: string): boolean;
  getEventDateRaw(id: string): unknown;
  /** The record and its raw API JSON in one read. */
  getEventDateWithRaw(id: string): { eventDate: EventDate; raw: unknown } | null;
  deleteEventDate(
    id: string,
    lastUpdated: number,
    opts?: { provisional?: boolean },
  ): EventDate | null;
  isTombstoned(
    kind: 'eventDate' | 'post',
    id: string,
    lastUpdated: number,
    culture?: string,
  ): boolean;
  listEventDates(q: { from: string; to: string; limit?: number }): EventDate[];
  upsertCategories(list: Category[]): void;
  upsertPost(p: Post, raw: unknown): { previous: Post | null; written: boolean };
  getPost(id: string, culture: string): Post | null;
  deletePost(
    id: string,
    culture: string,
    lastUpdated: number,
    opts?: { provisional?: boolean },
  ): Post | null;
  markNotificationApplied(key: string): boolean;
  getSyncState(key: string): string | null;
  setSyncState(key: string, value: string): void;
}

export interface SyncCalendarApi {
  eventDates(q: {
    from: string;
    to: string;
    volatilities?: string[];
    countries?: string[];
    categories?: string[];
  }): Promise<Raw<EventDate>[]>;
  eventDate(id: string): Promise<Raw<EventDate>>;
  event(id: string): Promise<Raw<CalendarEvent>>;
  categories(): Promise<Category[]>;
}

export interface SyncNewsApi {
  post(id: string, culture: string): Promise<Raw<Post>>;
  feed(
    culture: string,
    page: number,
  ): Promise<{ items: Raw<Post>[]; page: number; pageSize: number; total: number }>;
}

export interface SyncAlerts {
  recordForChange(change: DomainChange, hop?: ChangeHop): AlertRecord[];
  /** The one decision whether a print is news (alerts/decide.ts `newPrint`). */
  newPrintOf(ed: EventDate): { late: boolean } | null;
}

/** True for the API clients' "not found" error (authorized-call.ts turns every 404 into it). */
export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError;
}

/**
 * The fetched record, or null when it is gone upstream (404); other failures throw. A 404 is
 * believed only when the same API answers `probe`, a read it always has: a wrong base URL
 * answers 404 to everything, and must not make every `*_created` look deleted upstream
 * (the relay cursor would move on past prints with the status green). Then it is an
 * outage (ServiceUrlError): the item is retried and the status names the URL as the cause.
 */
export async function fetchOrNull<T>(
  fetch: () => Promise<T>,
  probe: { api: 'calendar' | 'news'; read: () => Promise<unknown> },
): Promise<T | null> {
  try {
    return await fetch();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await collectionRead(probe.api, probe.read);
    return null;
  }
}

/** The probes `fetchOrNull` asks: the calendar's categories, the news feed's first page. */
export const notFoundProbes = (calendar: SyncCalendarApi, news: SyncNewsApi, culture: string) => ({
  calendar: { api: 'calendar' as const, read: () => calendar.categories() },
  news: { api: 'news' as const, read: () => news.feed(culture, 1) },
});
