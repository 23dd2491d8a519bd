/**
 * What a notification brought is provisional until the service's own read decides
 * (store/event-dates.ts, posts.ts): a release's figure is read back shortly after its
 * webhook (a burst shares one read), once more if that read was too soon to decide, and a
 * deleted post is asked for again past the desk gateway's cache. Timers and the reads in
 * flight live here; what a read brings goes back through the applier's one path.
 */
import type { Logger } from 'pino';
import type { ChangeSource, DomainChange, EventDate, Post } from '../../shared/domain.js';
import { PROVISIONAL_STALE_MS } from '../store/event-dates.js';
import type { Raw, SyncCalendarApi, SyncNewsApi, SyncStore } from './ports.js';

export interface ConfirmLaterDeps {
  store: Pick<SyncStore, 'deletePost' | 'isProvisional'>;
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  logger: Logger;
  /** What a read brings goes back through the applier's one path. */
  applier: {
    applyEventDates(items: Raw<EventDate>[], source: ChangeSource): unknown;
    applyPosts(items: Raw<Post>[], source: ChangeSource): unknown;
    commit(fn: () => DomainChange[]): unknown;
  };
  /** A record read; its 404 is null (the applier's `readOrNull`). */
  readOrNull<T>(api: 'calendar' | 'news', read: () => Promise<T>): Promise<T | null>;
  /** Read at each schedule, so tests can shorten them. */
  delays(): { eventDateMs: number; postMs: number };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export class ConfirmLater {
  private readonly confirmations = new Set<Promise<unknown>>();
  private readonly eventDateTimers = new Map<string, NodeJS.Timeout>();
  /** Second reads of records a first read was too soon to decide. */
  private readonly rechecks = new Map<string, NodeJS.Timeout>();
  private readonly postTimers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly deps: ConfirmLaterDeps) {}

  /** Read the release back after a short delay; a burst for one id shares the read. */
  eventDate(id: string, source: ChangeSource): void {
    if (this.eventDateTimers.has(id)) return;
    const timer = setTimeout(() => {
      this.eventDateTimers.delete(id);
      this.track(this.confirmEventDate(id, source));
    }, this.deps.delays().eventDateMs);
    timer.unref?.();
    this.eventDateTimers.set(id, timer);
  }

  /** Ask whether a post a notification deleted still exists, past the gateway's cache. */
  postDeletion(id: string, culture: string, source: ChangeSource): void {
    const key = `${culture}:${id}`;
    if (this.postTimers.has(key)) return;
    const timer = setTimeout(() => {
      this.postTimers.delete(key);
      this.track(this.confirmPost(id, culture, source));
    }, this.deps.delays().postMs);
    timer.unref?.();
    this.postTimers.set(key, timer);
  }

  /** Wait for background confirmations (tests, shutdown); pending release reads run now. */
  async settle(): Promise<void> {
    for (const [id, timer] of this.eventDateTimers) {
      clearTimeout(timer);
      this.eventDateTimers.delete(id);
      this.track(this.confirmEventDate(id, 'relay'));
    }
    while (this.confirmations.size > 0) await Promise.allSettled([...this.confirmations]);
  }

  /** Drop pending confirmations (shutdown without network). */
  cancelPending(): void {
    for (const timers of [this.eventDateTimers, this.postTimers, this.rechecks]) {
      timers.forEach((t) => clearTimeout(t));
      timers.clear();
    }
  }

  /** The service still has the post: it comes back (no alert: its news was told once). */
  private async confirmPost(id: string, culture: string, source: ChangeSource): Promise<void> {
    try {
      const fetched = await this.deps.readOrNull('news', () => this.deps.news.post(id, culture));
      const { applier, store } = this.deps;
      if (fetched) applier.applyPosts([fetched], source);
      // Gone at the service too: the deletion is its word now.
      else applier.commit(() => (store.deletePost(id, culture, nowSeconds()), []));
    } catch (err) {
      this.deps.logger.warn({ err, id }, 'confirming a post deletion failed; the next sync will');
    }
  }

  private async confirmEventDate(id: string, source: ChangeSource, again = true): Promise<void> {
    try {
      const fetched = await this.deps.readOrNull('calendar', () =>
        this.deps.calendar.eventDate(id),
      );
      if (fetched) this.deps.applier.applyEventDates([fetched], source);
      // Read too soon to decide (it may predate the notification): once more, later.
      if (again && this.deps.store.isProvisional?.(id) && !this.rechecks.has(id)) {
        const timer = setTimeout(() => {
          this.rechecks.delete(id);
          this.track(this.confirmEventDate(id, source, false));
        }, PROVISIONAL_STALE_MS);
        timer.unref?.();
        this.rechecks.set(id, timer);
      }
    } catch (err) {
      this.deps.logger.warn({ err, id }, 'confirming an event date failed; the next sync will');
    }
  }

  private track(p: Promise<unknown>): void {
    this.confirmations.add(p);
    void p.finally(() => this.confirmations.delete(p));
  }
}
