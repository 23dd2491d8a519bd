/**
 * The relay's durable log: every acknowledged webhook is a row in SQLite (WAL,
 * synchronous=FULL) before its 204 goes out. Appends that arrive while a commit is
 * pending share the next transaction (group commit), so a burst costs one fsync per batch.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface StoredEvent {
  id: number;
  receivedAt: number;
  type: string;
  /** The body exactly as received. */
  body: Buffer;
}

interface Pending {
  body: Buffer;
  type: string;
  headers: string;
  resolve: (id: number) => void;
  reject: (err: unknown) => void;
}

export class EventLog {
  readonly db: Database.Database;
  private pending: Pending[] = [];
  private scheduled = false;
  private readonly insert: Database.Statement;
  /** One transaction per batch, one fsync (WAL, synchronous=FULL) at its commit. */
  private readonly insertBatch: (batch: Pending[], receivedAt: number) => StoredEvent[];
  private readonly selectAfter: Database.Statement;
  private readonly selectLastId: Database.Statement;
  private readonly selectOldestId: Database.Statement;
  private readonly selectTrimmed: Database.Statement;
  private readonly listeners = new Set<(events: StoredEvent[]) => void>();
  readonly commitLatencies: number[] = [];
  ingested = 0;

  /**
   * @param commitIntervalMs 0 = commit when the event loop turns (every request already
   *   read joins the batch); > 0 = also wait that long for more to arrive.
   */
  constructor(
    path: string,
    private readonly now: () => number = Date.now,
    private readonly commitIntervalMs = 0,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        received_at INTEGER NOT NULL,
        type TEXT NOT NULL,
        body BLOB NOT NULL,
        headers TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS events_received ON events(received_at);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    `);
    this.insert = this.db.prepare(
      'INSERT INTO events (received_at, type, body, headers) VALUES (?, ?, ?, ?)',
    );
    this.insertBatch = this.db.transaction((batch: Pending[], receivedAt: number) => {
      const out = new Array<StoredEvent>(batch.length);
      for (let i = 0; i < batch.length; i++) {
        const p = batch[i] as Pending;
        const { lastInsertRowid } = this.insert.run(receivedAt, p.type, p.body, p.headers);
        out[i] = { id: Number(lastInsertRowid), receivedAt, type: p.type, body: p.body };
      }
      return out;
    });
    this.selectAfter = this.db.prepare(
      'SELECT id, received_at, type, body FROM events WHERE id > ? ORDER BY id LIMIT ?',
    );
    this.selectLastId = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'");
    this.selectOldestId = this.db.prepare('SELECT min(id) AS id FROM events');
    this.selectTrimmed = this.db.prepare("SELECT value FROM meta WHERE key = 'trimmed_through'");
  }

  /** Resolves with the event's id once it is committed to disk. */
  append(body: Buffer, type: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ body, type, headers: JSON.stringify(headers), resolve, reject });
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
      batch.forEach((p) => p.reject(err));
      return;
    }
    this.commitLatencies.push(performance.now() - start);
    if (this.commitLatencies.length > 1000) this.commitLatencies.splice(0, 500);
    this.ingested += stored.length;
    stored.forEach((e, i) => (batch[i] as Pending).resolve(e.id));
    this.listeners.forEach((l) => l(stored));
  }

  onAppend(listener: (events: StoredEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Events after `id`, at most `limit` of them and about `maxBytes` of bodies (always at
   * least one, so a single large event still goes out). Rows are read one at a time, so
   * a page of large bodies never loads more than it returns.
   */
  after(id: number, limit: number, maxBytes = Number.POSITIVE_INFINITY): StoredEvent[] {
    const out: StoredEvent[] = [];
    let bytes = 0;
    for (const row of this.selectAfter.iterate(id, limit) as IterableIterator<{
      id: number;
      received_at: number;
      type: string;
      body: Buffer;
    }>) {
      if (out.length > 0 && bytes + row.body.length > maxBytes) break;
      bytes += row.body.length;
      out.push({ id: row.id, receivedAt: row.received_at, type: row.type, body: row.body });
    }
    return out;
  }

  lastId(): number {
    const row = this.selectLastId.get() as { seq: number } | undefined;
    return row?.seq ?? 0;
  }

  oldestId(): number | null {
    const row = this.selectOldestId.get() as { id: number | null };
    return row.id;
  }

  /** Highest id removed by retention (0 if none). */
  trimmedThrough(): number {
    const row = this.selectTrimmed.get() as { value: number } | undefined;
    return row?.value ?? 0;
  }

  /**
   * Whether resuming after `id` cannot be exact: retention already removed ids after it,
   * or the id is from a log this one is not (it is past our last id: the data was reset).
   */
  gapAfter(id: number): boolean {
    return this.trimmedThrough() > id || id > this.lastId();
  }

  trim(olderThanMs: number): number {
    const cutoff = this.now() - olderThanMs;
    return this.db.transaction(() => {
      const max = (
        this.db.prepare('SELECT max(id) AS id FROM events WHERE received_at < ?').get(cutoff) as {
          id: number | null;
        }
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
  }

  stats(): { rows: number; bytes: number } {
    const r = this.db
      .prepare('SELECT count(*) AS n, coalesce(sum(length(body)), 0) AS b FROM events')
      .get() as { n: number; b: number };
    return { rows: r.n, bytes: r.b };
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}
