/**
 * Full-text search over the cached news, best first (bm25; title matches weigh most), with
 * safe highlighted snippets.
 */
import type Database from 'better-sqlite3';
import type { SearchHit } from '../../shared/domain.js';
import { escapeHtml, toFtsQuery } from './html-text.js';
import type { PostsFtsTable, PostsTable } from './schema.js';
import { MARK_END, MARK_START, buildSnippet, queryMatcher } from './snippet.js';
import type { Statements } from './statements.js';

/**
 * Search ranks the newest matches only: bm25 over every post that says "inflation" is too
 * slow to type against, and bm25's cost grows with the candidates (250: about 1.5 ms on
 * 50,000 posts, 1,000: about 4 ms). For a trader, the last 250 stories that match are
 * the ones worth ranking; older ones are a page of "newest first" away.
 */
const SEARCH_CANDIDATES = 250;
/** A long last word matches at most this many indexed words that start with it. */
const PREFIX_TERMS = 24;
const MARK_OPEN = new RegExp(MARK_START, 'g');
const MARK_CLOSE = new RegExp(MARK_END, 'g');

type HitRow = Pick<PostsTable, 'id' | 'culture' | 'title' | 'published_ms' | 'pk'>;
/** The indexed text of one post, in column order. */
type TextRow = [
  title: PostsFtsTable['title'],
  summary: PostsFtsTable['summary'],
  body: PostsFtsTable['body'],
];

export class PostSearch {
  constructor(
    private readonly q: Statements,
    db: Database.Database,
  ) {
    // The index's vocabulary, to expand a long last word of a search into real terms.
    db.exec(
      'CREATE VIRTUAL TABLE IF NOT EXISTS temp.posts_vocab USING fts5vocab(main, posts_fts, row)',
    );
  }

  /**
   * Ranks the newest SEARCH_CANDIDATES matching posts of the culture (FTS rowid order is
   * cache order), then builds snippets for the returned rows only.
   */
  search(q: { query: string; culture?: string; limit?: number }): SearchHit[] {
    const match = toFtsQuery(q.query, (prefix) =>
      this.q
        .values<string>(
          'SELECT term FROM posts_vocab WHERE term >= @prefix AND term < @prefix || @top ORDER BY term LIMIT @n',
        )
        .all({ prefix, top: '\u{10FFFF}', n: PREFIX_TERMS }),
    );
    if (!match) return [];
    const limit = Math.max(1, Math.min(q.limit ?? 50, 500));
    const rows = this.q
      .objects<HitRow>(
        `SELECT p.id, p.culture, p.title, p.published_ms, c.pk FROM (
           SELECT f.rowid AS pk, bm25(posts_fts, 10.0, 4.0, 1.0) AS score
           FROM posts_fts f JOIN posts p ON p.pk = f.rowid
           WHERE posts_fts MATCH @match AND (@culture IS NULL OR p.culture = @culture)
           ORDER BY f.rowid DESC LIMIT @candidates
         ) c JOIN posts p ON p.pk = c.pk
         ORDER BY c.score, p.published_ms DESC LIMIT @limit`,
      )
      .all({ match, culture: q.culture ?? null, candidates: SEARCH_CANDIDATES, limit });
    const text = this.q.arrays<TextRow>(
      'SELECT title, summary, body FROM posts_fts WHERE rowid = ?',
    );
    const matches = queryMatcher(q.query);
    return rows.map((r) => ({
      id: r.id,
      culture: r.culture,
      title: r.title,
      // The indexed text is plain: escape all of it, then turn the match markers into <mark>.
      snippetHtml: escapeHtml(buildSnippet(text.get(r.pk) ?? [], matches))
        .replace(MARK_OPEN, '<mark>')
        .replace(MARK_CLOSE, '</mark>'),
      publicationDate: new Date(r.published_ms).toISOString(),
    }));
  }
}
