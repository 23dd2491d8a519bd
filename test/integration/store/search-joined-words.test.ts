/**
 * News search for a name written with a sign (issue #36, item 15): "AT&T" matched 47 of 49
 * stories (it searched "at" and any word starting with "t"), "S&P" ranked a story on the
 * Fed's balance sheet first. A word typed with a sign inside is searched as its phrase.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { toFtsQuery } from '../../../src/main/store/html-text.js';
import { postFixture } from '../../fixtures/domain.js';

const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const STORIES = [
  ['at-t', 'AT&T shares slide', 'AT&T missed its subscriber target at the open.'],
  ['sp', 'Wall Street: S&P 500 hits a record', 'The S&P 500 rose 1.2% to a record.'],
  [
    'fed',
    "US Fed's Balance Sheet shrinks",
    "The Fed's balance sheet fell to $6.6T, the Treasury said.",
  ],
  ['gold', 'Gold steadies at the top of its range', 'Traders took profits at the close.'],
  ['usd', 'USD/JPY trades at 155', 'The pair tested the 155 top in Tokyo.'],
];

function news(): Store {
  const s = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-joined-')), 'cache.db') });
  open.push(s);
  STORIES.forEach(([id, title, body], i) =>
    s.upsertPost(
      postFixture({
        id,
        title,
        contentHtml: `<p>${body}</p>`,
        publicationDate: new Date(Date.UTC(2026, 10, 20, 10, i)).toISOString(),
      }),
      {},
    ),
  );
  return s;
}

describe('news search for a word written with a sign', () => {
  it('finds “AT&T” in the one story that names it, marked as the phrase', () => {
    const hits = news().searchPosts({ query: 'AT&T' });
    expect(hits.map((h) => h.id)).toEqual(['at-t']);
    expect(hits[0]?.snippetHtml).toContain('<mark>AT</mark>&amp;<mark>T</mark> missed');
    // "at" and "the" elsewhere in the text are not marked
    expect(hits[0]?.snippetHtml).not.toContain('<mark>at</mark>');
    expect(hits[0]?.snippetHtml).not.toContain('<mark>the</mark>');
  });

  it('finds “S&P” in the S&P story only, not the Fed’s balance sheet', () => {
    expect(
      news()
        .searchPosts({ query: 'S&P' })
        .map((h) => h.id),
    ).toEqual(['sp']);
    expect(
      news()
        .searchPosts({ query: 's&p 500' })
        .map((h) => h.id),
    ).toEqual(['sp']);
    expect(
      news()
        .searchPosts({ query: "Fed's" })
        .map((h) => h.id),
    ).toEqual(['fed']);
  });

  it('keeps plain words as before: every word, the last one a prefix', () => {
    expect(toFtsQuery('AT&T')).toBe('"AT T"');
    expect(toFtsQuery('gold sto')).toBe('"gold" AND "sto"*');
    expect(
      news()
        .searchPosts({ query: 'tr' })
        .map((h) => h.id)
        .sort(),
    ).toEqual(['fed', 'gold', 'usd']);
  });
});
