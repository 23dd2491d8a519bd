/**
 * The search index decoded only six HTML entities, so `&rsquo;`, `&mdash;` or `&euro;`
 * were indexed (and shown in snippets) as raw text. Re-index the posts whose text has an
 * entity; a post without `&` indexes the same either way.
 */
import type Database from 'better-sqlite3';
import { searchColumnsV1, type IndexedPostV1 } from './frozen/search-columns.js';

const PAGE = 500;

export default {
  version: 6,
  name: 'decode_all_entities',
  up(db: Database.Database): void {
    const page = db.prepare<[number, number], { pk: number; record: string }>(
      "SELECT pk, record FROM posts WHERE pk > ? AND record LIKE '%&%' ORDER BY pk LIMIT ?",
    );
    const indexed = db
      .prepare<[number], [string, string, string]>(
        'SELECT title, summary, body FROM posts_fts WHERE rowid = ?',
      )
      .raw();
    const remove = db.prepare('DELETE FROM posts_fts WHERE rowid = ?');
    const insert = db.prepare(
      'INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)',
    );
    // In pages: a statement cannot write while another one on the connection is iterating.
    for (let after = 0; ;) {
      const rows = page.all(after, PAGE);
      for (const { pk, record } of rows) {
        const next = searchColumnsV1(JSON.parse(record) as IndexedPostV1);
        const now = indexed.get(pk);
        if (now && now.every((text, i) => text === next[i])) continue;
        remove.run(pk);
        insert.run(pk, ...next);
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]?.pk ?? after;
    }
  },
};
