/**
 * The relay's SQLite log (the default, one node): every acknowledged webhook is a row in
 * SQLite, and the WAL holding it is on disk, before its 204 goes out. Appends that arrive
 * while a commit is pending share the next transaction (group commit). The commit writes
 * the WAL (synchronous=NORMAL: no fsync inside it); the fsync that makes it durable — what
 * synchronous=FULL would do inside COMMIT — runs as fdatasync on libuv's thread pool, so the
 * event loop keeps reading the next batch meanwhile. Batches committed during one fsync
 * share the next. Only durable events are acknowledged, streamed or served to readers.
 */
import type Database from 'better-sqlite3';
import {
  SEEK_SKEW_MS,
  type EventLog,
  type LogHealth,
  type ResumePoint,
  type StoredEvent,
} from './event-log.js';
import { Emitter } from '../../shared/event.js';
import { commitLatencyHistogram } from '../metrics.js';
import { WalSync } from './wal-sync.js';
import { SQLITE_EVENT_ID, STREAM_EVENT_ID } from '../../shared/relay-ids.js';
import { getRow, oneRow } from '../../node/sqlite/rows.js';
import { ROWS, headersText, type EventRow } from './sqlite-log-rows.js';

/** Consecutive failed commits after which /healthz answers 503 (a full disk, say). */
const UNHEALTHY_AFTER_FAILURES = 3;

/** A committed batch waiting for its fsync. */
interface Committed {
  batch: Pending[];
  stored: StoredEvent[];
  start: number;
}

interface Pending {
  body: Buffer;
  type: string;
  headers: string;
  resolve: (id: string) => void;
  reject: (err: unknown) => void;
}

export class SqliteEventLog implements EventLog {
  readonly backend = 'sqlite';
  private pending: Pending[] = [];
  private scheduled = false;
  /** Committed, not yet fsynced (the next fdatasync covers them all). */
  private unsynced: Committed[] = [];
  private syncing: Promise<void> | null = null;
  /** The highest id known to be on disk: the limit of what is acknowledged, streamed, read. */
  private durableId = 0;
  private readonly wal: Pick<WalSync, 'sync' | 'syncNow' | 'close'>;
  private readonly insert: Database.Statement;
  /** One transaction per batch (its WAL fsync follows in sync()). */
  private readonly insertBatch: (batch: Pending[], receivedAt: number) => StoredEvent[];
  private readonly selectAfter: Database.Statement<[number, number, number], EventRow>;
  private readonly selectLastId: Database.Statement;
  private readonly selectOldestId: Database.Statement;
  private readonly selectTrimmed: Database.Statement;
  /**
   * Subscribers of what is now durable (the SSE hub, presence, alerts): each is isolated,
   * so one that throws can neither leave later batches unresolved nor stop the fsync
   * loop (it did), nor keep the others from hearing of the batch.
   */
  private readonly appended: Emitter<StoredEvent[]>;
  /** The log started refusing webhooks (why), or takes them again (null). */
  private readonly refusing: Emitter<string | null>;
  readonly commitLatency = commitLatencyHistogram();
  ingested = 0;
  storeFailures = 0;
  private failuresInARow = 0;
  private lastFailure: string | null = null;

  /**
   * @param commitIntervalMs 0 = commit when the event loop turns (every request already
   *   read joins the batch); > 0 = also wait that long for more to arrive.
   * @param walSync the WAL's fsync (tests hold or fail it to check nothing is acknowledged,
   *   streamed or read before it).
   */
  constructor(
    /** The relay database (relay-db.ts): opened, migrated and closed by its opener. */
    readonly db: Database.Database,
    private readonly now: () => number = Date.now,
    private readonly commitIntervalMs = 0,
    walSync: (walPath: string) => Pick<WalSync, 'sync' | 'syncNow' | 'close'> = (p) =>
      new WalSync(p),
    /** A subscriber's failure, reported (the log goes on); by default to the relay's log. */
    onListenerError?: (err: unknown) => void,
  ) {
    this.appended = new Emitter<StoredEvent[]>({
      name: 'SqliteEventLog.onAppend',
      onListenerError,
    });
    this.refusing = new Emitter<string | null>({
      name: 'SqliteEventLog.onRefusing',
      onListenerError,
    });
    // The commit's fsync is ours, off the event loop (see flush/sync); checkpoints still
    // fsync the WAL before copying it into the database, as with FULL. The other stores'
    // rare writes share the handle: they are durable at the next batch's fsync.
    this.db.pragma('synchronous = NORMAL');
    this.insert = this.db.prepare(
      'INSERT INTO events (received_at, type, body, headers) VALUES (?, ?, ?, ?)',
    );
    this.insertBatch = this.db.transaction((batch: Pending[], receivedAt: number) => {
      const out = new Array<StoredEvent>(batch.length);
      for (let i = 0; i < batch.length; i++) {
        const p = batch[i] as Pending;
        const { lastInsertRowid } = this.insert.run(receivedAt, p.type, p.body, p.headers);
        out[i] = { id: String(lastInsertRowid), receivedAt, type: p.type, body: p.body };
      }
      return out;
    });
    this.selectAfter = this.db.prepare(
      'SELECT id, received_at, type, body FROM events WHERE id > ? AND id <= ? ORDER BY id LIMIT ?',
    );
    this.selectLastId = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'");
    this.selectOldestId = this.db.prepare('SELECT min(id) AS id FROM events');
    this.selectTrimmed = this.db.prepare("SELECT value FROM meta WHERE key = 'trimmed_through'");
    this.wal = walSync(`${db.name}-wal`);
    // Whatever an earlier run committed is made durable before it is served.
    this.wal.syncNow();
    this.durableId = this.storedLastId();
  }

  /** Resolves with the event's id once it is committed to disk. */
  append(body: Buffer, type: string, headers: Record<string, string>): Promise<string> {
    return new Promise((resolve, reject) => {
      this.pending.push({ body, type, headers: headersText(headers), resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Let every request already read this turn (or within the interval) join the batch.
        if (this.commitIntervalMs > 0) setTimeout(() => this.flush(), this.commitIntervalMs);
        else setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const start = performance.now();
    const receivedAt = this.now();
    let stored: StoredEvent[];
    try {
      stored = this.insertBatch(batch, receivedAt);
    } catch (err) {
      this.failed(batch, err);
      return;
    }
    this.unsynced.push({ batch, stored, start });
    this.syncing ??= this.sync();
  }

  /** fdatasync of the WAL for every batch committed so far; again while more are waiting. */
  private async sync(): Promise<void> {
    while (this.unsynced.length > 0) {
      const done = this.unsynced;
      this.unsynced = [];
      try {
        await this.wal.sync();
      } catch (err) {
        // Not known to be on disk: refused (the service retries). The rows stay in the
        // file, so a later fsync makes them durable and readable in order.
        for (const c of done) this.failed(c.batch, err);
        continue;
      }
      if (this.failuresInARow >= UNHEALTHY_AFTER_FAILURES) this.refusing.fire(null);
      this.failuresInARow = 0;
      const end = performance.now();
      for (const { batch, stored, start } of done) {
        this.commitLatency.observe((end - start) / 1000);
        this.ingested += stored.length;
        this.durableId = Math.max(this.durableId, Number((stored.at(-1) as StoredEvent).id));
        stored.forEach((e, i) => (batch[i] as Pending).resolve(e.id));
        this.appended.fire(stored);
      }
    }
    this.syncing = null;
  }

  private failed(batch: Pending[], err: unknown): void {
    this.storeFailures += batch.length;
    this.failuresInARow++;
    this.lastFailure = (err as Error).message;
    batch.forEach((p) => p.reject(err));
    if (this.failuresInARow === UNHEALTHY_AFTER_FAILURES)
      this.refusing.fire(this.health().reason ?? null);
  }

  onRefusing(listener: (reason: string | null) => void): () => void {
    const subscription = this.refusing.event(listener);
    return () => subscription.dispose();
  }

  onAppend(listener: (events: StoredEvent[]) => void): () => void {
    const subscription = this.appended.event(listener);
    return () => subscription.dispose();
  }

  /**
   * Events after `id`, at most `limit` of them and about `maxBytes` of bodies (always at
   * least one, so a single large event still goes out). Rows are read one at a time, so
   * a page of large bodies never loads more than it returns.
   */
  after(id: string, limit: number, maxBytes = Number.POSITIVE_INFINITY): Promise<StoredEvent[]> {
    return Promise.resolve(this.afterSync(Number(id), limit, maxBytes));
  }

  /** Rows are read one at a time: a page of large bodies never loads more than it returns. */
  private afterSync(id: number, limit: number, maxBytes: number): StoredEvent[] {
    const out: StoredEvent[] = [];
    let bytes = 0;
    for (const row of this.selectAfter.iterate(id, this.durableId, limit)) {
      if (out.length > 0 && bytes + row.body.length > maxBytes) break;
      bytes += row.body.length;
      out.push({ id: String(row.id), receivedAt: row.received_at, type: row.type, body: row.body });
    }
    return out;
  }

  lastPositions(limit: number): Promise<{ id: string; receivedAt: number }[]> {
    const rows = this.db
      .prepare<[number, number], { id: number; received_at: number }>(
        'SELECT id, received_at FROM events WHERE id <= ? ORDER BY id DESC LIMIT ?',
      )
      .all(this.durableId, limit);
    return Promise.resolve(
      rows.reverse().map((r) => ({ id: String(r.id), receivedAt: r.received_at })),
    );
  }

  /** The last durable id (a committed batch waiting for its fsync is not there yet). */
  lastId(): string {
    return String(this.durableId);
  }

  private storedLastId(): number {
    return getRow(this.selectLastId, ROWS.sequence)?.seq ?? 0;
  }

  private oldestId(): string | null {
    const { id } = oneRow(this.selectOldestId, ROWS.maxOrMinId);
    return id === null ? null : String(id);
  }

  /** Highest id removed by retention (0 if none). */
  private trimmedThrough(): number {
    return getRow(this.selectTrimmed, ROWS.trimmed)?.value ?? 0;
  }

  /** Integer ids only; a stream id ("…-…") is from a Redis log: it resumes with a reset. */
  parseId(raw: string): string | null {
    if (SQLITE_EVENT_ID.test(raw)) return String(Number(raw));
    return STREAM_EVENT_ID.test(raw) ? raw : null;
  }

  /**
   * Resuming after `id` cannot be exact when retention already removed ids after it, or
   * the id is from a log this one is not (past our last id, or a stream id).
   */
  resume(after: string): Promise<ResumePoint> {
    const lastId = this.lastId();
    const oldestId = this.oldestId();
    const n = SQLITE_EVENT_ID.test(after) ? Number(after) : Number.POSITIVE_INFINITY;
    const gap = this.trimmedThrough() > n || n > Number(lastId);
    // Everything available follows a gap; ids before the oldest are gone (or from another log).
    const from = gap
      ? String(Math.min(n, Math.max(0, Number(oldestId ?? Number(lastId) + 1) - 1)))
      : after;
    return Promise.resolve({ from, gap, oldestId, lastId });
  }

  health(): LogHealth {
    if (this.failuresInARow < UNHEALTHY_AFTER_FAILURES) return { ok: true };
    return {
      ok: false,
      reason: `the last ${this.failuresInARow} commits failed: ${this.lastFailure ?? 'unknown error'}`,
    };
  }

  /** The last event received before the range (less the skew), on the received_at index. */
  seek(since: number): Promise<string> {
    const { id } = oneRow(
      this.db.prepare('SELECT max(id) AS id FROM events WHERE received_at < ?'),
      ROWS.maxOrMinId,
      since - SEEK_SKEW_MS,
    );
    return Promise.resolve(String(id ?? 0));
  }

  trim(olderThanMs: number): Promise<number> {
    const cutoff = this.now() - olderThanMs;
    const removed = this.db.transaction(() => {
      const max = oneRow(
        this.db.prepare('SELECT max(id) AS id FROM events WHERE received_at < ?'),
        ROWS.maxOrMinId,
        cutoff,
      ).id;
      if (max === null) return 0;
      const n = this.db.prepare('DELETE FROM events WHERE id <= ?').run(max).changes;
      this.db
        .prepare(
          "INSERT INTO meta (key, value) VALUES ('trimmed_through', ?) ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value)",
        )
        .run(max);
      return n;
    })();
    // The trim point must survive a crash too (a resume from before it gets its reset).
    if (removed > 0) this.wal.syncNow();
    return Promise.resolve(removed);
  }

  stats(): Promise<{ rows: number; bytes: number }> {
    const r = oneRow(
      this.db.prepare('SELECT count(*) AS n, coalesce(sum(length(body)), 0) AS b FROM events'),
      ROWS.size,
    );
    return Promise.resolve({ rows: r.n, bytes: r.b });
  }

  async close(): Promise<void> {
    this.flush();
    await this.syncing;
    this.wal.close();
  }
}
