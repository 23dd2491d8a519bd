/**
 * The fsync that makes a SQLite WAL commit durable, done by the relay instead of inside
 * COMMIT (synchronous=NORMAL): `fdatasync` of the -wal file on libuv's thread pool, so the
 * event loop keeps working while the disk flushes.
 */
import { closeSync, fdatasync, fdatasyncSync, fstatSync, openSync, statSync } from 'node:fs';

export class WalSync {
  private fd = -1;
  private ino = 0;
  private checkedAt = 0;

  /** Opens the WAL (it must exist: the database is in WAL mode and has been written). */
  constructor(private readonly walPath: string) {
    this.open();
  }

  private open(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = openSync(this.walPath, 'r+');
    this.ino = fstatSync(this.fd).ino;
    this.checkedAt = performance.now();
  }

  /**
   * SQLite removes the WAL only when the last connection closes, and the log's stays
   * open, so the file never changes under us; checked anyway, at most once a second (a
   * stat per batch was a measurable share of ingest).
   */
  private check(): void {
    const t = performance.now();
    if (t - this.checkedAt < 1000) return;
    this.checkedAt = t;
    if (statSync(this.walPath).ino !== this.ino) this.open();
  }

  /** Everything written to the WAL before this call is on disk when it resolves. */
  sync(): Promise<void> {
    this.check();
    return new Promise((resolve, reject) =>
      fdatasync(this.fd, (err) => (err ? reject(err) : resolve())),
    );
  }

  /** The same, blocking (start-up and retention, not the ingest path). */
  syncNow(): void {
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
