/**
 * The SQLite log's promise, checked at its seam with the disk: a webhook is acknowledged,
 * streamed and served to readers only after the fdatasync that covers it has returned.
 * A kill -9 cannot test this (the page cache survives it); holding the fsync open can:
 * whatever leaks out before it returns would be lost to a power cut at that moment.
 */
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../../src/relay/log/event-log.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { WalSync } from '../../../src/relay/log/wal-sync.js';
import { tempDir, waitFor } from './helpers.js';

/** The real WAL fsync, with each call held until the test lets it go (or fails it). */
class HeldWalSync {
  private readonly real: WalSync;
  readonly held: { release: () => void; fail: (err: Error) => void }[] = [];

  constructor(walPath: string) {
    this.real = new WalSync(walPath);
  }

  sync(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.held.push({
        release: () => this.real.sync().then(resolve, reject),
        fail: reject,
      }),
    );
  }

  syncNow(): void {
    this.real.syncNow();
  }

  close(): void {
    this.real.close();
  }
}

const logs: { log: SqliteEventLog; db: Database.Database }[] = [];
afterEach(async () => {
  for (const { log, db } of logs.splice(0)) {
    await log.close().catch(() => undefined);
    db.close();
  }
});

function open(): { log: SqliteEventLog; wal: () => HeldWalSync } {
  let wal: HeldWalSync | undefined;
  const db = openRelayDatabase(tempDir());
  const log = new SqliteEventLog(db, Date.now, 0, (p) => {
    wal = new HeldWalSync(p);
    return wal;
  });
  logs.push({ log, db });
  return { log, wal: () => wal as HeldWalSync };
}

const body = (n: number) => Buffer.from(JSON.stringify({ type: 'eventDate_updated', n }));

describe('the SQLite log before its fsync returns', () => {
  it('acknowledges, streams and serves nothing; then all of it, in order', async () => {
    const { log, wal } = open();
    const streamed: StoredEvent[] = [];
    log.onAppend((batch) => streamed.push(...batch));
    let acked = 0;
    const appends = [1, 2, 3].map((n) => log.append(body(n), 'x', {}).then((id) => (acked++, id)));
    await waitFor(() => wal().held.length === 1, 'the commit to ask for its fsync');
    // Committed to the WAL, not yet on disk: invisible everywhere.
    expect(acked).toBe(0);
    expect(streamed).toEqual([]);
    expect(await log.after('0', 10)).toEqual([]);
    expect(log.lastId()).toBe('0');
    // A second batch commits while the first fsync is held; it waits for its own.
    const fourth = log.append(body(4), 'x', {});
    await new Promise((r) => setImmediate(r));
    (wal().held[0] as { release: () => void }).release();
    const ids = await Promise.all(appends);
    expect(ids).toEqual(['1', '2', '3']);
    expect(streamed.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect((await log.after('0', 10)).map((e) => e.id)).toEqual(['1', '2', '3']);
    await waitFor(() => wal().held.length === 2, 'the second batch to ask for its fsync');
    (wal().held[1] as { release: () => void }).release();
    expect(await fourth).toBe('4');
    expect(streamed.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
  });

  it('refuses the batch when the fsync fails, and reports it after repeated failures', async () => {
    const { log, wal } = open();
    const streamed: StoredEvent[] = [];
    log.onAppend((batch) => streamed.push(...batch));
    for (let k = 0; k < 3; k++) {
      const refused = log.append(body(k), 'x', {});
      await waitFor(() => wal().held.length === k + 1, 'the fsync');
      (wal().held[k] as { fail: (e: Error) => void }).fail(new Error('EIO: i/o error, fdatasync'));
      await expect(refused).rejects.toThrow(/EIO/);
    }
    expect(streamed).toEqual([]);
    expect(log.health()).toMatchObject({ ok: false, reason: expect.stringMatching(/EIO/) });
    // The disk is back: the next fsync covers the earlier rows too, which follow in order
    // (the service retried them; duplicates are the app's idempotency keys' job).
    const ok = log.append(body(9), 'x', {});
    await waitFor(() => wal().held.length === 4, 'the fsync');
    (wal().held[3] as { release: () => void }).release();
    expect(await ok).toBe('4');
    expect(log.health().ok).toBe(true);
    expect((await log.after('0', 10)).map((e) => e.id)).toEqual(['1', '2', '3', '4']);
  });
});
