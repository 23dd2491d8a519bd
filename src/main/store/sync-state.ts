/** What the sync engine remembers between runs: cursors, and the notifications applied. */
import type { NotificationsAppliedTable, SyncStateTable } from './schema.js';
import type { Statements } from './statements.js';

export class SyncState {
  constructor(
    private readonly q: Statements,
    private readonly now: () => number,
  ) {}

  /** Records an idempotency key; false when it was applied before. */
  markNotificationApplied(key: NotificationsAppliedTable['key']): boolean {
    return (
      this.q
        .objects('INSERT OR IGNORE INTO notifications_applied (key, applied_at) VALUES (?, ?)')
        .run(key, this.now()).changes === 1
    );
  }

  get(key: string): string | null {
    return (
      this.q
        .values<SyncStateTable['value']>('SELECT value FROM sync_state WHERE key = ?')
        .get(key) ?? null
    );
  }

  set(key: string, value: string): void {
    this.q
      .objects(
        'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }
}
