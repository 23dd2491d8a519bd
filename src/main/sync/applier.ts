/**
 * The one path every change takes into the cache, whatever its source. Idempotent and
 * order-tolerant: `lastUpdated` decides (an older update never overwrites a newer one),
 * deletions leave tombstones, and each alert is recorded in the same SQLite transaction
 * as the change that caused it, so a duplicate or a crash never alerts twice.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type {
  AlertRecord,
  ChangeSource,
  DomainChange,
  EventDate,
  Post,
} from '../../shared/domain.js';
import {
  eventCreatedSchema,
  eventDateLifecycleSchema,
  eventDateUpdatedSchema,
  notificationSchema,
  postNotificationSchema,
} from '../../shared/wire.js';
import { diffEventDate, mergeChanges } from './diff.js';
import {
  isNotFound,
  type Raw,
  type SyncAlerts,
  type SyncCalendarApi,
  type SyncNewsApi,
  type SyncStore,
} from './ports.js';

export interface ApplierDeps {
  store: SyncStore;
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  alerts: SyncAlerts;
  logger: Logger;
  /** Cultures the user syncs; post notifications for others are ignored. */
  cultures: () => string[];
  onChanges: (changes: DomainChange[]) => void;
}

interface Step {
  fn: () => DomainChange[];
  dedupKey?: string;
  afterApply?: () => void;
}

/** Thrown for a notification body that is not a usable notification; never retried. */
export class InvalidNotificationError extends Error {
  override name = 'InvalidNotificationError';
}

/** Backfill re-reads history: only prints can alert from it (the engine drops stale ones). */
function alertable(change: DomainChange): boolean {
  return change.source !== 'backfill' || change.kind === 'released';
}

export class ChangeApplier {
  private readonly confirmations = new Set<Promise<unknown>>();
  private readonly confirmTimers = new Map<string, NodeJS.Timeout>();
  /** Delay before confirming a webhook's changes with a fetch; bursts share one fetch. */
  static confirmDelayMs = 500;

  constructor(private readonly deps: ApplierDeps) {}

  /**
   * Run `fn` in one transaction with alert recording; `afterApply` runs inside the same
   * transaction (the relay consumer persists its Last-Event-ID there).
   */
  commit(
    fn: () => DomainChange[],
    opts: { dedupKey?: string; afterApply?: () => void } = {},
  ): DomainChange[] {
    return this.commitMany([{ fn, ...opts }]);
  }

  /**
   * Several steps in one transaction (one WAL commit): each keeps its own idempotency key
   * and alert records, so a burst costs one commit instead of one per notification.
   */
  commitMany(steps: Step[]): DomainChange[] {
    const records: AlertRecord[] = [];
    const { store, alerts } = this.deps;
    const changes = store.transaction(() => {
      const applied: DomainChange[] = [];
      for (const step of steps) {
        if (!step.dedupKey || store.markNotificationApplied(step.dedupKey)) {
          const cs = step.fn();
          for (const change of cs) {
            if (alertable(change)) records.push(...alerts.recordForChange(change));
          }
          applied.push(...cs);
        }
        step.afterApply?.();
      }
      return applied;
    });
    if (records.length > 0) alerts.dispatch(records);
    if (changes.length > 0) this.deps.onChanges(changes);
    return changes;
  }

  /**
   * Apply notifications in arrival order. Consecutive ones that need no fetch (updates of
   * cached occurrences, deletions) share one transaction; the others go one by one.
   */
  async applyMany(
    items: { payload: unknown; afterApply?: () => void }[],
    source: ChangeSource,
  ): Promise<DomainChange[]> {
    const out: DomainChange[] = [];
    let batch: Step[] = [];
    const flush = () => {
      if (batch.length > 0) out.push(...this.commitMany(batch));
      batch = [];
    };
    for (const item of items) {
      const step = this.syncStep(item.payload, source, item.afterApply);
      if (step) batch.push(step);
      else {
        flush();
        out.push(...(await this.applyNotification(item.payload, source, item.afterApply)));
      }
    }
    flush();
    return out;
  }

  /** The no-fetch path for a notification, or null when it needs the network. */
  private syncStep(payload: unknown, source: ChangeSource, afterApply?: () => void): Step | null {
    if (!isShallow(payload)) return null; // applyNotification reports it
    const upd = eventDateUpdatedSchema.safeParse(payload);
    if (!upd.success) return null;
    const n = upd.data;
    if (!this.deps.store.hasEventDate(n.eventDateId)) return null;
    this.scheduleConfirm(n.eventDateId, source);
    return { dedupKey: notificationKey(n), afterApply, fn: () => this.mergeUpdate(n, source) };
  }

  private mergeUpdate(
    n: { eventDateId: string; lastUpdated: number; changes: { key: string; value: unknown }[] },
    source: ChangeSource,
  ): DomainChange[] {
    const { store } = this.deps;
    const current = store.getEventDateWithRaw(n.eventDateId);
    if (!current || current.eventDate.lastUpdated > n.lastUpdated) return [];
    const { eventDate, raw } = current;
    const merged = mergeChanges(eventDate, isRecord(raw) ? raw : {}, n.changes, n.lastUpdated);
    return this.upsertEventDate(merged.eventDate, merged.raw, source, eventDate);
  }

  /** Upsert fetched event dates (backfill, poll) and report what changed. */
  applyEventDates(items: Raw<EventDate>[], source: ChangeSource): DomainChange[] {
    return this.commit(() =>
      items.flatMap((item) => this.upsertEventDate(item.value, item.raw, source)),
    );
  }

  applyPosts(items: Raw<Post>[], source: ChangeSource): DomainChange[] {
    return this.commit(() =>
      items.flatMap((item) => this.upsertPost(item.value, item.raw, source)),
    );
  }

  /** Event dates the server no longer lists inside a fully fetched window. */
  removeMissing(
    ids: { id: string; eventId: string }[],
    lastUpdated: number,
    source: ChangeSource,
  ): DomainChange[] {
    return this.commit(() =>
      ids.flatMap(({ id, eventId }) => {
        const removed = this.deps.store.deleteEventDate(id, lastUpdated);
        return removed
          ? [
              {
                kind: 'eventDateRemoved' as const,
                eventDateId: id,
                eventId,
                eventDate: removed,
                source,
              },
            ]
          : [];
      }),
    );
  }

  /**
   * Apply one webhook notification (from the relay, a direct webhook or a test).
   * Network failures while fetching throw, so the caller retries later; a record that is
   * gone upstream (404) is treated as deleted.
   */
  async applyNotification(
    payload: unknown,
    source: ChangeSource,
    afterApply?: () => void,
  ): Promise<DomainChange[]> {
    if (!isShallow(payload)) {
      throw new InvalidNotificationError(`notification nested deeper than ${MAX_DEPTH} levels`);
    }
    const base = notificationSchema.safeParse(payload);
    if (!base.success) throw new InvalidNotificationError('notification without a string "type"');
    const dedupKey = notificationKey(base.data);
    const { store, calendar, news, logger } = this.deps;
    switch (base.data.type) {
      case 'event_created': {
        const n = parse(eventCreatedSchema, payload);
        const fetched = await this.fetchOrNull(() => calendar.event(n.eventId));
        return this.commit(
          () => {
            if (!fetched) return [];
            const existed = store.getEvent(n.eventId) !== null;
            store.upsertEvent(fetched.value, fetched.raw);
            return existed ? [] : [{ kind: 'eventAdded', event: fetched.value, source }];
          },
          { dedupKey, afterApply },
        );
      }
      case 'eventDate_created': {
        const n = parse(eventDateLifecycleSchema, payload);
        if (store.isTombstoned('eventDate', n.eventDateId, n.lastUpdated ?? 0)) {
          return this.commit(() => [], { dedupKey, afterApply });
        }
        const fetched = await this.fetchOrNull(() => calendar.eventDate(n.eventDateId));
        await this.ensureEvent(n.eventId);
        return this.commit(
          () => (fetched ? this.upsertEventDate(fetched.value, fetched.raw, source) : []),
          {
            dedupKey,
            afterApply,
          },
        );
      }
      case 'eventDate_updated': {
        const n = parse(eventDateUpdatedSchema, payload);
        if (!store.hasEventDate(n.eventDateId)) {
          // Not in the cache (outside the window, or missed): take the server's record.
          if (store.isTombstoned('eventDate', n.eventDateId, n.lastUpdated)) {
            return this.commit(() => [], { dedupKey, afterApply });
          }
          const fetched = await this.fetchOrNull(() => calendar.eventDate(n.eventDateId));
          return this.commit(
            () => (fetched ? this.upsertEventDate(fetched.value, fetched.raw, source) : []),
            {
              dedupKey,
              afterApply,
            },
          );
        }
        // Apply the changes at once so the alert does not wait for a fetch…
        const changes = this.commit(() => this.mergeUpdate(n, source), { dedupKey, afterApply });
        // …then confirm with the server's full record (fills ratioDeviation & co), once per
        // occurrence per burst, off the hot path.
        this.scheduleConfirm(n.eventDateId, source);
        return changes;
      }
      case 'eventDate_deleted': {
        const n = parse(eventDateLifecycleSchema, payload);
        return this.commit(
          () => {
            const removed = store.deleteEventDate(
              n.eventDateId,
              n.lastUpdated ?? Math.floor(Date.now() / 1000),
            );
            return removed
              ? [
                  {
                    kind: 'eventDateRemoved',
                    eventDateId: n.eventDateId,
                    eventId: n.eventId,
                    eventDate: removed,
                    source,
                  },
                ]
              : [];
          },
          { dedupKey, afterApply },
        );
      }
      case 'post_created':
      case 'post_updated': {
        const n = parse(postNotificationSchema, payload);
        const culture = n.culture ?? this.deps.cultures()[0] ?? 'en-US';
        if (
          !this.deps.cultures().includes(culture) ||
          store.isTombstoned('post', n.postId, n.lastUpdated ?? 0, culture)
        ) {
          return this.commit(() => [], { dedupKey, afterApply });
        }
        const fetched = await this.fetchOrNull(() => news.post(n.postId, culture));
        return this.commit(
          () => (fetched ? this.upsertPost(fetched.value, fetched.raw, source) : []),
          {
            dedupKey,
            afterApply,
          },
        );
      }
      case 'post_deleted': {
        const n = parse(postNotificationSchema, payload);
        const culture = n.culture ?? this.deps.cultures()[0] ?? 'en-US';
        return this.commit(
          () => {
            const removed = store.deletePost(
              n.postId,
              culture,
              n.lastUpdated ?? Math.floor(Date.now() / 1000),
            );
            return removed ? [{ kind: 'postRemoved', postId: n.postId, culture, source }] : [];
          },
          { dedupKey, afterApply },
        );
      }
      default:
        // Unknown types are data, not errors: keep them for a later version to use.
        logger.warn({ type: base.data.type }, 'unknown notification type kept');
        return this.commit(
          () => {
            store.setSyncState(`unknown:${dedupKey}`, JSON.stringify(payload));
            return [];
          },
          { dedupKey, afterApply },
        );
    }
  }

  /** Wait for background confirmations (tests, shutdown); pending ones run now. */
  async settle(): Promise<void> {
    for (const [id, timer] of this.confirmTimers) {
      clearTimeout(timer);
      this.confirmTimers.delete(id);
      this.track(this.confirmEventDate(id, 'relay'));
    }
    while (this.confirmations.size > 0) await Promise.allSettled([...this.confirmations]);
  }

  /** Drop pending confirmations (shutdown without network). */
  cancelPending(): void {
    this.confirmTimers.forEach((t) => clearTimeout(t));
    this.confirmTimers.clear();
  }

  private scheduleConfirm(id: string, source: ChangeSource): void {
    if (this.confirmTimers.has(id)) return;
    const timer = setTimeout(() => {
      this.confirmTimers.delete(id);
      this.track(this.confirmEventDate(id, source));
    }, ChangeApplier.confirmDelayMs);
    timer.unref?.();
    this.confirmTimers.set(id, timer);
  }

  private upsertEventDate(
    ed: EventDate,
    raw: unknown,
    source: ChangeSource,
    current?: EventDate,
  ): DomainChange[] {
    const { previous, written } = this.deps.store.upsertEventDate(ed, raw, current);
    return written ? diffEventDate(previous, ed, source) : [];
  }

  private upsertPost(post: Post, raw: unknown, source: ChangeSource): DomainChange[] {
    const { previous, written } = this.deps.store.upsertPost(post, raw);
    if (!written) return [];
    if (!previous) return [{ kind: 'postPublished', post, source }];
    const same =
      previous.title === post.title &&
      previous.summary === post.summary &&
      previous.contentHtml === post.contentHtml &&
      previous.updateDate === post.updateDate;
    return same ? [] : [{ kind: 'postUpdated', post, source }];
  }

  private async ensureEvent(eventId: string): Promise<void> {
    if (this.deps.store.getEvent(eventId)) return;
    const fetched = await this.fetchOrNull(() => this.deps.calendar.event(eventId)).catch(
      () => null,
    );
    if (fetched)
      this.deps.store.transaction(() => this.deps.store.upsertEvent(fetched.value, fetched.raw));
  }

  private async confirmEventDate(id: string, source: ChangeSource): Promise<void> {
    try {
      const fetched = await this.fetchOrNull(() => this.deps.calendar.eventDate(id));
      if (fetched) this.applyEventDates([fetched], source);
    } catch (err) {
      this.deps.logger.warn(
        { err: errorMessage(err), id },
        'confirming an event date failed; the next sync will',
      );
    }
  }

  private async fetchOrNull<T>(fetch: () => Promise<T>): Promise<T | null> {
    try {
      return await fetch();
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  private track(p: Promise<unknown>): void {
    this.confirmations.add(p);
    void p.finally(() => this.confirmations.delete(p));
  }
}

function parse<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  payload: unknown,
): T {
  const r = schema.safeParse(payload);
  if (!r.success) {
    throw new InvalidNotificationError(
      `invalid notification: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return r.data;
}

/** Real notifications are a few levels deep; anything deeper is refused before it is walked. */
export const MAX_DEPTH = 32;

/** Depth check without recursion: a 20,000-level body must not overflow the stack here. */
export function isShallow(value: unknown, maxDepth = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return false;
    for (const child of Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return true;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A stable identity for a notification: the same delivery twice has the same key. */
export function notificationKey(n: { type: string } & Record<string, unknown>): string {
  return createHash('sha256').update(stableStringify(n)).digest('base64url').slice(0, 32);
}

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
