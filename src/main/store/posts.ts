/** News posts: writes that never let an older update win, the list, and the read flag. */
import type { Post, PostSummary } from '../../shared/domain.js';
import { postSchema } from '../../shared/domain-schemas.js';
import { parseCheckedJson } from '../../node/json/checked-json.js';
import { searchColumns } from './html-text.js';
import type { PostsTable } from './schema.js';
import { ms, type Statements } from './statements.js';
import type { Tombstones } from './tombstones.js';
import { PROVISIONAL_STALE_MS } from './event-dates.js';

type SummaryRow = Pick<
  PostsTable,
  'id' | 'culture' | 'title' | 'summary' | 'published_ms' | 'author_name' | 'read'
>;

const toSummary = (r: SummaryRow): PostSummary => ({
  id: r.id,
  culture: r.culture,
  title: r.title,
  summary: r.summary,
  publicationDate: new Date(r.published_ms).toISOString(),
  authorName: r.author_name,
  read: r.read === 1,
});

/** The post as kept in `posts.record` (JSON), checked: a record another version wrote fails here. */
const fromRecord = (record: PostsTable['record']): Post =>
  parseCheckedJson('a cached post (posts.record)', postSchema, record);

/**
 * A deletion a notification brought is provisional, like an event date's (event-dates.ts):
 * a forged `post_deleted` must not remove a real story for good. A read of the service at
 * least PROVISIONAL_STALE_MS later that still has the post brings it back.
 */
const provisionalKey = (id: string, culture: string) => `provisional:post:${culture}:${id}`;

export class Posts {
  constructor(
    private readonly q: Statements,
    private readonly tombstones: Tombstones,
    private readonly now: () => number = Date.now,
  ) {}

  /** When a notification deleted this post and no read of the service decided yet, or null. */
  provisionalSince(id: string, culture: string): number | null {
    const v = this.q
      .values<string>('SELECT value FROM sync_state WHERE key = ?')
      .get(provisionalKey(id, culture));
    return v === undefined ? null : Number(v);
  }

  private setProvisional(id: string, culture: string, provisional: boolean): void {
    if (provisional)
      this.q
        .objects(
          'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
        )
        .run(provisionalKey(id, culture), String(this.now()));
    else this.q.objects('DELETE FROM sync_state WHERE key = ?').run(provisionalKey(id, culture));
  }

  upsert(p: Post, raw: unknown): { previous: Post | null; written: boolean } {
    const previous = this.get(p.id, p.culture);
    const updated = ms(p.updateDate ?? p.publicationDate);
    const prevUpdated = previous ? ms(previous.updateDate ?? previous.publicationDate) : 0;
    if (previous && prevUpdated > updated) return { previous, written: false };
    if (!previous && this.tombstones.has('post', p.id, Math.floor(updated / 1000), p.culture)) {
      // Only the service's word deletes for good: its read, late enough, brings it back.
      const since = this.provisionalSince(p.id, p.culture);
      if (since === null || this.now() - since < PROVISIONAL_STALE_MS)
        return { previous, written: false };
      this.tombstones.clear('post', p.id, p.culture);
      this.setProvisional(p.id, p.culture, false);
    }
    const record = JSON.stringify(p);
    if (previous && JSON.stringify(previous) === record) return { previous, written: false };
    const pk = this.q
      .values<PostsTable['pk']>(
        `INSERT INTO posts (id, culture, published_ms, updated_ms, title, summary, author_name, record, raw)
         VALUES (@id, @culture, @published, @updated, @title, @summary, @author, @record, @raw)
         ON CONFLICT(id, culture) DO UPDATE SET published_ms=excluded.published_ms, updated_ms=excluded.updated_ms,
           title=excluded.title, summary=excluded.summary, author_name=excluded.author_name,
           record=excluded.record, raw=excluded.raw
         RETURNING pk`,
      )
      .get({
        id: p.id,
        culture: p.culture,
        published: ms(p.publicationDate),
        updated,
        title: p.title,
        summary: p.summary,
        author: p.authorName,
        record,
        raw: JSON.stringify(raw ?? p),
      });
    if (pk === undefined) throw new Error(`Post ${p.id} was not written`);
    this.index(pk, p);
    this.tombstones.clear('post', p.id, p.culture);
    return { previous, written: true };
  }

  /** (Re)writes a post's searchable text, keyed by its pk. */
  private index(pk: number, p: Post): void {
    this.q.objects('DELETE FROM posts_fts WHERE rowid = ?').run(pk);
    this.q
      .objects('INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)')
      .run(pk, ...searchColumns(p));
  }

  get(id: string, culture: string): Post | null {
    const record = this.q
      .values<PostsTable['record']>('SELECT record FROM posts WHERE id = ? AND culture = ?')
      .get(id, culture);
    return record === undefined ? null : fromRecord(record);
  }

  /** `provisional`: a notification's deletion, undone when the service still has the post. */
  delete(
    id: string,
    culture: string,
    lastUpdated: number,
    opts: { provisional?: boolean } = {},
  ): Post | null {
    const row = this.q
      .objects<Pick<PostsTable, 'pk' | 'updated_ms' | 'record'>>(
        'SELECT pk, updated_ms, record FROM posts WHERE id = ? AND culture = ?',
      )
      .get(id, culture);
    if (row && Math.floor(row.updated_ms / 1000) > lastUpdated) return null;
    this.tombstones.write('post', id, culture, lastUpdated);
    this.setProvisional(id, culture, opts.provisional === true);
    if (!row) return null;
    this.q.objects('DELETE FROM posts_fts WHERE rowid = ?').run(row.pk);
    this.q.objects('DELETE FROM posts WHERE pk = ?').run(row.pk);
    return fromRecord(row.record);
  }

  list(q: { culture?: string; page: number; pageSize: number }): {
    items: PostSummary[];
    total: number;
  } {
    const offset = (q.page - 1) * q.pageSize;
    const where = q.culture ? 'WHERE culture = @culture' : '';
    const rows = this.q
      .objects<SummaryRow>(
        `SELECT id, culture, title, summary, published_ms, author_name, read FROM posts ${where}
         ORDER BY published_ms DESC, id LIMIT @limit OFFSET @offset`,
      )
      .all({ culture: q.culture, limit: q.pageSize, offset });
    const total = this.q
      .values<number>(`SELECT count(*) FROM posts ${where}`)
      .get({ culture: q.culture });
    return { total: total ?? 0, items: rows.map(toSummary) };
  }

  markRead(id: string, culture: string): void {
    this.q.objects('UPDATE posts SET read = 1 WHERE id = ? AND culture = ?').run(id, culture);
  }
}
