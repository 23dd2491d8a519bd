/** Every HTML entity is decoded in the search index and its snippets, old caches included; news titles and summaries are plain text. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../../../src/shared/domain.js';
import { htmlToText, openStore, type Store } from '../../../src/main/store/index.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';
import { openDatabase } from '../../../src/main/store/open.js';
import { postWireSchema, toPost } from '../../../src/shared/wire.js';
import { postFixture } from '../../fixtures/domain.js';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'mb-entities-')), 'cache.db');
const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
const store = (path = tmp()) => {
  const s = openStore({ path });
  open.push(s);
  return s;
};

const post = (id: string, contentHtml: string): Post =>
  postFixture({ id, title: 'Budget update', contentHtml });
const BODY = '<p>The Fed&rsquo;s view &mdash; a &euro;5bn gap&hellip; &amp; &lt;more&gt;</p>';

describe('HTML entities in the search index', () => {
  it('decodes named, numeric and legacy entities to text', () => {
    expect(htmlToText(BODY)).toBe('The Fed’s view — a €5bn gap… & <more>');
    expect(htmlToText('caf&eacute; &#8364; &#x2014; &copy 2026')).toBe('café € — © 2026');
  });

  it('indexes the decoded text: snippets show the characters, entity names match nothing', () => {
    const s = store();
    s.upsertPost(post('p1', BODY), {});
    const [hit] = s.searchPosts({ query: 'gap' });
    expect(hit?.snippetHtml).toContain('Fed’s view — a €5bn <mark>gap</mark>… &amp; &lt;more&gt;');
    for (const name of ['rsquo', 'mdash', 'euro', 'hellip']) {
      expect(s.searchPosts({ query: name })).toEqual([]);
    }
  });

  it('re-indexes posts cached by a version that left entities raw', () => {
    const path = tmp();
    const v5 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 5) });
    const insertPost = v5.prepare(
      `INSERT INTO posts (id, culture, published_ms, updated_ms, title, summary, author_name, record, raw)
       VALUES (?, 'en-US', 1, 1, 'Budget update', NULL, NULL, ?, '{}') RETURNING pk`,
    );
    const index = v5.prepare(
      'INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)',
    );
    // As the old decoder indexed it: the six basic entities decoded, every other one raw.
    const pk = insertPost.pluck().get('p1', JSON.stringify(post('p1', BODY))) as number;
    index.run(
      pk,
      'Budget update',
      '',
      'The Fed&rsquo;s view &mdash; a &euro;5bn gap&hellip; & <more>',
    );
    const plain = insertPost.pluck().get('p2', JSON.stringify(post('p2', '<p>No entity gap</p>')));
    index.run(plain as number, 'Budget update', '', 'No entity gap');
    v5.close();

    const s = store(path);
    expect(s.searchPosts({ query: 'rsquo' })).toEqual([]);
    const hits = s.searchPosts({ query: 'gap' });
    expect(hits.map((h) => h.id).sort()).toEqual(['p1', 'p2']);
    expect(hits.find((h) => h.id === 'p1')?.snippetHtml).toContain('Fed’s view — a €5bn');
  });
});

describe('news titles and summaries are plain text (issue #26, defect 7)', () => {
  const wire = {
    Id: 'p9',
    Title: 'S&amp;P 500 &#8211; Fed&#8217;s <b>pause</b>',
    Summary: '<p>Stocks &amp; bonds</p>',
    Content: '<p>Body</p>',
    PublicationDate: '2026-11-20T10:00:00Z',
  };

  it('decodes entities and strips tags as a post enters', () => {
    const p = toPost(postWireSchema.parse(wire), 'en-US');
    expect(p.title).toBe('S&P 500 – Fed’s pause');
    expect(p.summary).toBe('Stocks & bonds');
    expect(p.contentHtml).toBe('<p>Body</p>');
  });

  it('converts the posts an older version cached, title, summary and index', () => {
    const path = tmp();
    const v6 = openDatabase(path, { migrations: MIGRATIONS.slice(0, 6) });
    const raw = { ...post('p9', '<p>Body</p>'), title: wire.Title, summary: wire.Summary };
    const pk = v6
      .prepare(
        `INSERT INTO posts (id, culture, published_ms, updated_ms, title, summary, author_name, record, raw)
         VALUES ('p9', 'en-US', 1, 1, ?, ?, NULL, ?, '{}') RETURNING pk`,
      )
      .pluck()
      .get(raw.title, raw.summary, JSON.stringify(raw)) as number;
    v6.prepare('INSERT INTO posts_fts (rowid, title, summary, body) VALUES (?, ?, ?, ?)').run(
      pk,
      raw.title,
      'Stocks bonds',
      'Body',
    );
    v6.close();

    const s = store(path);
    const [hit] = s.searchPosts({ query: 'pause' });
    expect(hit?.title).toBe('S&P 500 – Fed’s pause');
    expect(s.searchPosts({ query: '8217' })).toEqual([]);
    expect(s.getPost('p9', 'en-US')?.summary).toBe('Stocks & bonds');
  });
});
