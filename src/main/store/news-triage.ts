/**
 * News triage over the posts table: the unread count, an unread-only or one-tag view of the
 * list, and marking a whole culture read. Plain SQL on the store's connection; tags are read
 * from the stored record (JSON), which is fast enough for a news cache (thousands of posts).
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { PostSummary } from '../../shared/domain.js';
import { allRows, oneRow, rowMapper } from '../../node/sqlite/rows.js';

export interface PostListQuery {
  culture?: string;
  page: number;
  pageSize: number;
  unreadOnly?: boolean;
  tag?: string;
}

/** A row of the news list (posts columns), and a count. */
const POST_ROW = rowMapper('a news list row', {
  id: z.string(),
  culture: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  published_ms: z.number(),
  author_name: z.string().nullable(),
  read: z.number(),
});
const COUNT = rowMapper('a news count', { n: z.number() });

// Prepared once per connection and SQL text (a handful of filter combinations).
const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();
function stmt(db: Database.Database, sql: string): Database.Statement {
  let byText = prepared.get(db);
  if (!byText) prepared.set(db, (byText = new Map()));
  let s = byText.get(sql);
  if (!s) byText.set(sql, (s = db.prepare(sql)));
  return s;
}

function where(q: { culture?: string; unreadOnly?: boolean; tag?: string }): string {
  const parts: string[] = [];
  if (q.culture) parts.push('culture = @culture');
  if (q.unreadOnly) parts.push('read = 0');
  if (q.tag) parts.push(`EXISTS (SELECT 1 FROM json_each(record, '$.tags') WHERE value = @tag)`);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

export function listPostsTriaged(
  db: Database.Database,
  q: PostListQuery,
): { items: PostSummary[]; total: number; unread: number } {
  const params = { culture: q.culture ?? null, tag: q.tag ?? null };
  const w = where(q);
  const rows = allRows(
    stmt(
      db,
      `SELECT id, culture, title, summary, published_ms, author_name, read FROM posts ${w}
       ORDER BY published_ms DESC, id LIMIT @limit OFFSET @offset`,
    ),
    POST_ROW,
    { ...params, limit: q.pageSize, offset: (q.page - 1) * q.pageSize },
  );
  const count = (sql: string) => oneRow(stmt(db, sql), COUNT, params).n;
  return {
    items: rows.map((r) => ({
      id: r.id,
      culture: r.culture,
      title: r.title,
      summary: r.summary,
      publicationDate: new Date(r.published_ms).toISOString(),
      authorName: r.author_name,
      read: r.read === 1,
    })),
    total: count(`SELECT count(*) AS n FROM posts ${w}`),
    unread: count(
      `SELECT count(*) AS n FROM posts ${where({ culture: q.culture, unreadOnly: true })}`,
    ),
  };
}

/** Marks every post of the culture (every post without one) read; answers how many changed. */
export function markAllPostsRead(db: Database.Database, culture?: string): number {
  const sql = `UPDATE posts SET read = 1 WHERE read = 0 ${culture ? 'AND culture = @culture' : ''}`;
  return stmt(db, sql).run(culture ? { culture } : {}).changes;
}
