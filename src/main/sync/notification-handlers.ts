/**
 * One handler per notification type (the service's webhook types, docs/service-api.md).
 * Each parses its body, fetches what the notification only names, and commits through
 * the applier's one transaction path (src/main/sync/applier.ts).
 */
import type { ChangeSource, DomainChange, EventDate, Post } from '../../shared/domain.js';
import {
  eventCreatedSchema,
  eventDateLifecycleSchema,
  eventDateUpdatedSchema,
  postNotificationSchema,
} from '../../shared/wire.js';
import { isShallow, parseNotification } from './notification.js';
import type { SyncCalendarApi, SyncNewsApi, SyncStore } from './ports.js';

type EventDateUpdate = {
  eventDateId: string;
  lastUpdated: number;
  changes: { key: string; value: unknown }[];
};

/** What a handler may do, bound to one notification (its source, dedup key and afterApply). */
export interface HandlerContext {
  store: SyncStore;
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  cultures: () => string[];
  source: ChangeSource;
  /** Commit in one transaction under this notification's idempotency key. */
  commit(fn: () => DomainChange[]): DomainChange[];
  ensureEvent(eventId: string): Promise<void>;
  /** A record read, null when the service says it is gone (ports.ts `fetchOrNull`). */
  readOrNull<T>(api: 'calendar' | 'news', read: () => Promise<T>): Promise<T | null>;
  upsertEventDate(ed: EventDate, raw: unknown): DomainChange[];
  upsertPost(post: Post, raw: unknown): DomainChange[];
  mergeUpdate(n: EventDateUpdate): DomainChange[];
  /** Confirm an occurrence with the server's full record, once per burst, off the hot path. */
  scheduleConfirm(eventDateId: string): void;
  /** Ask the service, later, whether a post a notification deleted still exists. */
  schedulePostConfirm(postId: string, culture: string): void;
}

type Handler = (payload: unknown, ctx: HandlerContext) => Promise<DomainChange[]>;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const nothing = (): DomainChange[] => [];

function postCulture(n: { culture?: string }, ctx: HandlerContext): string {
  return n.culture ?? ctx.cultures()[0] ?? 'en-US';
}

/** eventDate_created, and eventDate_updated for an occurrence not in the cache: fetch it. */
async function fetchEventDate(
  n: { eventDateId: string; lastUpdated?: number },
  ctx: HandlerContext,
): Promise<DomainChange[]> {
  if (ctx.store.isTombstoned('eventDate', n.eventDateId, n.lastUpdated ?? 0)) {
    return ctx.commit(nothing);
  }
  const fetched = await ctx.readOrNull('calendar', () => ctx.calendar.eventDate(n.eventDateId));
  return ctx.commit(() => (fetched ? ctx.upsertEventDate(fetched.value, fetched.raw) : []));
}

async function upsertFetchedPost(payload: unknown, ctx: HandlerContext): Promise<DomainChange[]> {
  const n = parseNotification(postNotificationSchema, payload);
  const culture = postCulture(n, ctx);
  if (
    !ctx.cultures().includes(culture) ||
    ctx.store.isTombstoned('post', n.postId, n.lastUpdated ?? 0, culture)
  ) {
    return ctx.commit(nothing);
  }
  const fetched = await ctx.readOrNull('news', () => ctx.news.post(n.postId, culture));
  return ctx.commit(() => (fetched ? ctx.upsertPost(fetched.value, fetched.raw) : []));
}

/**
 * An update of an occurrence in the cache needs no fetch: its merge, to run in the
 * notification's transaction, and a confirming fetch of the server's full record after
 * (fills ratioDeviation & co) — so the alert never waits for one. Null: it needs a fetch.
 */
function mergeCached(
  n: EventDateUpdate,
  ctx: Pick<HandlerContext, 'store' | 'mergeUpdate' | 'scheduleConfirm'>,
): (() => DomainChange[]) | null {
  if (!ctx.store.hasEventDate(n.eventDateId)) return null;
  ctx.scheduleConfirm(n.eventDateId);
  return () => ctx.mergeUpdate(n);
}

/**
 * The no-fetch part of a notification, for a burst to share one transaction (the
 * applier's `applyMany`): the same path as its handler, or null when it needs the network
 * (or is not a well-formed update: its handler reports that).
 */
export function immediateStep(
  payload: unknown,
  ctx: Pick<HandlerContext, 'store' | 'mergeUpdate' | 'scheduleConfirm'>,
): (() => DomainChange[]) | null {
  if (!isShallow(payload)) return null;
  const upd = eventDateUpdatedSchema.safeParse(payload);
  return upd.success ? mergeCached(upd.data, ctx) : null;
}

export const notificationHandlers: Readonly<Record<string, Handler>> = {
  async event_created(payload, ctx) {
    const n = parseNotification(eventCreatedSchema, payload);
    const fetched = await ctx.readOrNull('calendar', () => ctx.calendar.event(n.eventId));
    return ctx.commit(() => {
      if (!fetched) return [];
      const existed = ctx.store.getEvent(n.eventId) !== null;
      ctx.store.upsertEvent(fetched.value, fetched.raw);
      return existed ? [] : [{ kind: 'eventAdded', event: fetched.value, source: ctx.source }];
    });
  },

  async eventDate_created(payload, ctx) {
    const n = parseNotification(eventDateLifecycleSchema, payload);
    if (ctx.store.isTombstoned('eventDate', n.eventDateId, n.lastUpdated ?? 0)) {
      return ctx.commit(nothing);
    }
    const fetched = await ctx.readOrNull('calendar', () => ctx.calendar.eventDate(n.eventDateId));
    await ctx.ensureEvent(n.eventId);
    return ctx.commit(() => (fetched ? ctx.upsertEventDate(fetched.value, fetched.raw) : []));
  },

  async eventDate_updated(payload, ctx) {
    const n = parseNotification(eventDateUpdatedSchema, payload);
    const merge = mergeCached(n, ctx);
    // Not in the cache (outside the window, or missed): take the server's record.
    return merge ? ctx.commit(merge) : fetchEventDate(n, ctx);
  },

  async eventDate_deleted(payload, ctx) {
    const n = parseNotification(eventDateLifecycleSchema, payload);
    // Provisional, whatever its stamp: ask the service whether the date still exists.
    ctx.scheduleConfirm(n.eventDateId);
    return ctx.commit(() => {
      const stamp = n.lastUpdated ?? nowSeconds();
      const removed = ctx.store.deleteEventDate(n.eventDateId, stamp, { provisional: true });
      return removed
        ? [
            {
              kind: 'eventDateRemoved',
              eventDateId: n.eventDateId,
              eventId: n.eventId,
              eventDate: removed,
              source: ctx.source,
            },
          ]
        : [];
    });
  },

  post_created: upsertFetchedPost,
  post_updated: upsertFetchedPost,

  async post_deleted(payload, ctx) {
    const n = parseNotification(postNotificationSchema, payload);
    const culture = postCulture(n, ctx);
    // Provisional, whatever its stamp: ask the service whether the story still exists.
    if (ctx.cultures().includes(culture)) ctx.schedulePostConfirm(n.postId, culture);
    return ctx.commit(() => {
      const stamp = n.lastUpdated ?? nowSeconds();
      const removed = ctx.store.deletePost(n.postId, culture, stamp, { provisional: true });
      return removed
        ? [{ kind: 'postRemoved', postId: n.postId, culture, source: ctx.source }]
        : [];
    });
  },
};
