/**
 * The one path every change takes into the cache, whatever its source. Idempotent and
 * order-tolerant: `lastUpdated` decides (an older update never overwrites a newer one),
 * deletions leave tombstones, and each alert is recorded in the same SQLite transaction
 * as the change that caused it, so a duplicate or a crash never alerts twice.
 *
 * After each commit, and only then, `onDidCommit` tells what the transaction changed and
 * alerted — the one publish point: alert delivery, the status, the window's pushes (and so
 * the squawk) subscribe to it (src/main/service/publish.ts). A rollback publishes nothing.
 */
import type { Logger } from 'pino';
import type {
  AlertRecord,
  ChangeSource,
  DomainChange,
  EventDate,
  Post,
} from '../../shared/domain.js';
import type { ChangeHop } from '../alerts/engine.js';
import { Emitter, type Event } from '../../shared/event.js';
import { notificationSchema } from '../../shared/wire.js';
import { ConfirmLater } from './confirm-later.js';
import { alertable, asRelease, markRestores } from './provisional-figures.js';
import { diffEventDate, diffPost, mergeChanges } from './diff.js';
import {
  immediateStep,
  notificationHandlers,
  type HandlerContext,
} from './notification-handlers.js';
import { InvalidNotificationError } from '../errors.js';
import { assertShallow, isRecord, notificationKey } from './notification.js';
import {
  fetchOrNull,
  notFoundProbes,
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
}

/** What one committed transaction changed, and the alerts it recorded. */
export interface Committed {
  changes: DomainChange[];
  alerts: AlertRecord[];
}

interface Step {
  fn: () => DomainChange[];
  dedupKey?: string;
  afterApply?: () => void;
  hop?: ChangeHop;
}

/** A notification to apply, with what its transport knows about its trip. */
export interface NotificationItem {
  payload: unknown;
  afterApply?: () => void;
  hop?: ChangeHop;
}

/** A print and a history row are different facts: the print the decision calls news says so. */
function markNewPrint(change: DomainChange, alerts: SyncAlerts): void {
  if (change.kind !== 'released') return;
  const print = alerts.newPrintOf(change.eventDate);
  if (print) change.print = { late: print.late };
}

export class ChangeApplier {
  /** Reads of the service that decide what notifications brought (confirm-later.ts). */
  private readonly confirmLater: ConfirmLater;
  /** Changes that put the service's values back over a future-stamped notification: no alert. */
  private readonly restores = new WeakSet<DomainChange>();
  /** Delay before confirming a webhook's changes with a fetch; bursts share one fetch. */
  static confirmDelayMs = 500;
  /**
   * Delay before asking whether a deleted post still exists: past the desk gateway's
   * minute of keeping a post's answer (read-routes.ts), so its answer is the service's now.
   */
  static postConfirmDelayMs = 65_000;
  private readonly didCommit: Emitter<Committed>;
  /** After each commit that changed or alerted something; never inside the transaction. */
  readonly onDidCommit: Event<Committed>;

  constructor(private readonly deps: ApplierDeps) {
    // A failing listener must not fail the apply (it is committed) nor starve the others.
    this.didCommit = new Emitter<Committed>((err) =>
      deps.logger.warn({ err }, 'a listener of a commit failed'),
    );
    this.onDidCommit = this.didCommit.event;
    this.confirmLater = new ConfirmLater({
      ...deps,
      applier: this,
      readOrNull: (api, read) => this.readOrNull(api, read),
      delays: () => ({
        eventDateMs: ChangeApplier.confirmDelayMs,
        postMs: ChangeApplier.postConfirmDelayMs,
      }),
    });
  }

  /**
   * Run `fn` in one transaction with alert recording; `afterApply` runs inside the same
   * transaction (the relay consumer persists its Last-Event-ID there).
   */
  commit(
    fn: () => DomainChange[],
    opts: { dedupKey?: string; afterApply?: () => void; hop?: ChangeHop } = {},
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
            if (!alertable(change, this.restores)) continue;
            markNewPrint(change, alerts);
            records.push(...alerts.recordForChange(change, step.hop));
          }
          applied.push(...cs);
        }
        step.afterApply?.();
      }
      return applied;
    });
    if (changes.length > 0 || records.length > 0) this.didCommit.fire({ changes, alerts: records });
    return changes;
  }

  /**
   * Apply notifications in arrival order. Consecutive ones that need no fetch (updates of
   * cached occurrences, deletions) share one transaction; the others go one by one.
   */
  async applyMany(items: NotificationItem[], source: ChangeSource): Promise<DomainChange[]> {
    const out: DomainChange[] = [];
    let batch: Step[] = [];
    const flush = () => {
      if (batch.length > 0) out.push(...this.commitMany(batch));
      batch = [];
    };
    for (const item of items) {
      const step = this.syncStep(item, source);
      if (step) batch.push(step);
      else {
        flush();
        out.push(
          ...(await this.applyNotification(item.payload, source, item.afterApply, item.hop)),
        );
      }
    }
    flush();
    return out;
  }

  /** The no-fetch path for a notification (its handler's own), or null when it needs the network. */
  private syncStep(item: NotificationItem, source: ChangeSource): Step | null {
    const { payload, afterApply, hop } = item;
    const fn = immediateStep(payload, {
      store: this.deps.store,
      mergeUpdate: (n) => this.mergeUpdate(n, source),
      scheduleConfirm: (id) => this.confirmLater.eventDate(id, source),
    });
    if (!fn) return null;
    return { fn, dedupKey: notificationKey(payload as { type: string }), afterApply, hop };
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
    // Provisional: the service's next read decides (store/event-dates.ts).
    return this.upsertEventDate(merged.eventDate, merged.raw, source, eventDate, true);
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
    hop?: ChangeHop,
  ): Promise<DomainChange[]> {
    assertShallow(payload);
    const base = notificationSchema.safeParse(payload);
    if (!base.success) throw new InvalidNotificationError('notification without a string "type"');
    const dedupKey = notificationKey(base.data);
    const { type } = base.data;
    if (Object.hasOwn(notificationHandlers, type)) {
      return notificationHandlers[type](
        payload,
        this.handlerContext(source, dedupKey, afterApply, hop),
      );
    }
    // Unknown types are data, not errors: keep them for a later version to use.
    this.deps.logger.warn({ type }, 'unknown notification type kept');
    return this.commit(
      () => {
        this.deps.store.setSyncState(`unknown:${dedupKey}`, JSON.stringify(payload));
        return [];
      },
      { dedupKey, afterApply },
    );
  }

  private handlerContext(
    source: ChangeSource,
    dedupKey: string,
    afterApply?: () => void,
    hop?: ChangeHop,
  ): HandlerContext {
    const { store, calendar, news, cultures } = this.deps;
    return {
      store,
      calendar,
      news,
      cultures,
      source,
      commit: (fn) => this.commit(fn, { dedupKey, afterApply, hop }),
      ensureEvent: (eventId) => this.ensureEvent(eventId),
      readOrNull: (api, read) => this.readOrNull(api, read),
      upsertEventDate: (ed, raw) => this.upsertEventDate(ed, raw, source),
      upsertPost: (post, raw) => this.upsertPost(post, raw, source),
      mergeUpdate: (n) => this.mergeUpdate(n, source),
      scheduleConfirm: (id) => this.confirmLater.eventDate(id, source),
      schedulePostConfirm: (id, culture) => this.confirmLater.postDeletion(id, culture, source),
    };
  }

  /** Wait for background confirmations (tests, shutdown); pending ones run now. */
  settle(): Promise<void> {
    return this.confirmLater.settle();
  }

  /** Drop pending confirmations (shutdown without network). */
  cancelPending(): void {
    this.confirmLater.cancelPending();
  }

  private upsertEventDate(
    ed: EventDate,
    raw: unknown,
    source: ChangeSource,
    current?: EventDate,
    provisional = false,
  ): DomainChange[] {
    const { previous, written, overrode, unconfirmed } = this.deps.store.upsertEventDate(
      ed,
      raw,
      current,
      { provisional },
    );
    const diffed = written ? diffEventDate(previous, ed, source) : [];
    // A figure no read of the service confirmed (a notification's word, maybe forged).
    const held = unconfirmed || overrode ? (previous?.actual ?? null) : null;
    const changes = held === null ? diffed : diffed.map((c) => asRelease(c, held));
    if (!overrode) return changes;
    // The service's read over a figure only a notification brought (which held back the
    // real one): the service's figure is the release itself.
    markRestores(changes, previous, ed, source, this.restores);
    return changes;
  }

  private upsertPost(post: Post, raw: unknown, source: ChangeSource): DomainChange[] {
    const { previous, written } = this.deps.store.upsertPost(post, raw);
    return written ? diffPost(previous, post, source) : [];
  }

  /** A record read; its 404 is believed only when the API answers a read it always has. */
  private readOrNull<T>(api: 'calendar' | 'news', read: () => Promise<T>): Promise<T | null> {
    const { calendar, news, cultures } = this.deps;
    return fetchOrNull(read, notFoundProbes(calendar, news, cultures()[0] ?? 'en-US')[api]);
  }

  private async ensureEvent(eventId: string): Promise<void> {
    if (this.deps.store.getEvent(eventId)) return;
    const fetched = await this.readOrNull('calendar', () =>
      this.deps.calendar.event(eventId),
    ).catch(() => null);
    if (fetched)
      this.deps.store.transaction(() => this.deps.store.upsertEvent(fetched.value, fetched.raw));
  }
}
