/** Housekeeping: sizes and counts for diagnostics, forgetting the cache, pruning old keys. */
import { statSync } from 'node:fs';
import type { Statements } from './statements.js';

/** Tables refilled from the service; the alert history is the user's and is kept. */
const CACHE_TABLES = [
  'events',
  'event_dates',
  'categories',
  'posts',
  'posts_fts',
  'tombstones',
  'notifications_applied',
  'sync_state',
] as const;

const fileSize = (p: string): number => {
  try {
    return statSync(p).size;
  } catch {
    return 0;
  }
};

export class Maintenance {
  constructor(
    private readonly q: Statements,
    private readonly path: string,
    private readonly transaction: <T>(fn: () => T) => T,
    private readonly now: () => number,
  ) {}

  counts(): { eventDates: number; posts: number; events: number } {
    const n = (table: 'event_dates' | 'posts' | 'events') =>
      this.q.values<number>(`SELECT count(*) FROM ${table}`).get() ?? 0;
    return { eventDates: n('event_dates'), posts: n('posts'), events: n('events') };
  }

  sizeBytes(): number {
    return fileSize(this.path) + fileSize(`${this.path}-wal`);
  }

  clearCache(): void {
    this.transaction(() => {
      for (const t of CACHE_TABLES) this.q.db.exec(`DELETE FROM ${t}`);
    });
  }

  /**
   * Forgets idempotency keys and tombstones older than `olderThanMs`: no retried webhook or
   * late page arrives that late, and both tables would otherwise grow forever.
   * Returns how many rows went.
   */
  prune(opts: { olderThanMs: number }): { notifications: number; tombstones: number } {
    const before = this.now() - opts.olderThanMs;
    return this.transaction(() => ({
      notifications: this.q
        .objects('DELETE FROM notifications_applied WHERE applied_at < ?')
        .run(before).changes,
      tombstones: this.q.objects('DELETE FROM tombstones WHERE deleted_at < ?').run(before).changes,
    }));
  }
}
