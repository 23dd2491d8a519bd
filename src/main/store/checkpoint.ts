/**
 * WAL checkpoints off the write path. SQLite checkpoints inside the commit that crosses
 * `wal_autocheckpoint`, and with `synchronous = NORMAL` the checkpoint is where the fsyncs
 * are: on a slow disk they were most of the time spent applying a burst of notifications.
 * Here a write only schedules a PASSIVE checkpoint for when the event loop is free (at most
 * one per `delayMs`); the automatic checkpoint stays as a backstop at a larger WAL, for a
 * writer that never yields.
 */
import type Database from 'better-sqlite3';

/** ~40 MB of WAL (4 KiB pages) before a commit checkpoints by itself. */
export const BACKSTOP_PAGES = 10_000;
/** After a checkpoint, a WAL file that grew past this is truncated back to it. */
const WAL_SIZE_LIMIT = 8 * 1024 * 1024;

export class IdleCheckpoint {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly delayMs = 1000,
  ) {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  }

  /** A transaction committed: checkpoint soon, unless one is already due. */
  wrote(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        // PASSIVE never waits for readers or writers; what it cannot copy waits for the next.
        if (this.db.open) this.db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy or closing: the next write schedules another, and the backstop remains.
      }
    }, this.delayMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
