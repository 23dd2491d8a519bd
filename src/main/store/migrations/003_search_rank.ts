/** Rank news search with bm25 weighted by column inside FTS5, so `ORDER BY rank LIMIT n` stays fast. */
export default {
  version: 3,
  name: 'search_rank',
  up: `INSERT INTO posts_fts(posts_fts, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');`,
};
