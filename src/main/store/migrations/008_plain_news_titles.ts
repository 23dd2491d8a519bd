/**
 * News titles and summaries were stored as the source sent them, so "S&amp;P 500 &#8211;"
 * or "<p>Stocks &amp; bonds</p>" reached the screen. They now enter as plain text (toPost);
 * convert the posts cached before, and re-index their title and summary.
 */
import type Database from 'better-sqlite3';
import { htmlToTextV1 } from './frozen/html-to-text.js';
import { searchColumnsV1, type IndexedPostV1 } from './frozen/search-columns.js';

const PAGE = 500;

export default {
  version: 8,
  name: 'plain_news_titles',
  up(db: Database.Database): void {
    const page = db.prepare<[number, number], { pk: number; record: string }>(
      `SELECT pk, record FROM posts WHERE pk > ?
         AND (title LIKE '%&%' OR title LIKE '%<%' OR summary LIKE '%&%' OR summary LIKE '%<%')
       ORDER BY pk LIMIT ?`,
    );
    const update = db.prepare('UPDATE posts SET title = ?, summary = ?, record = ? WHERE pk = ?');
    const remove = db.prepare('DELETE FROM posts_fts WHERE rowid = ?');
    const insert = db.prepare(
      'INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)',
    );
    // In pages: a statement cannot write while another one on the connection is iterating.
    for (let after = 0; ;) {
      const rows = page.all(after, PAGE);
      for (const { pk, record } of rows) {
        const post = JSON.parse(record) as IndexedPostV1;
        post.title = htmlToTextV1(post.title);
        post.summary = post.summary === null ? null : htmlToTextV1(post.summary);
        update.run(post.title, post.summary, JSON.stringify(post), pk);
        remove.run(pk);
        insert.run(pk, ...searchColumnsV1(post));
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]?.pk ?? after;
    }
  },
};
