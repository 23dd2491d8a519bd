import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Post } from '../../../src/shared/domain.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { listPostsTriaged, markAllPostsRead } from '../../../src/main/store/news-triage.js';
import { postFixture } from '../../fixtures/domain.js';

const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const post = (id: string, over: Partial<Post> = {}): Post =>
  postFixture({
    id,
    title: `Story ${id}`,
    publicationDate: `2026-11-${id.padStart(2, '0')}T10:00:00Z`,
    ...over,
  });

function seeded(): Store {
  const s = openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-triage-')), 'cache.db') });
  open.push(s);
  s.upsertPost(post('1', { tags: ['Fed', 'USD'] }), {});
  s.upsertPost(post('2', { tags: ['ECB', 'EUR'] }), {});
  s.upsertPost(post('3', { tags: ['Fed'] }), {});
  s.upsertPost(post('4', { culture: 'es-ES', tags: ['Fed'] }), {});
  s.markPostRead('3', 'en-US');
  return s;
}

const page = { culture: 'en-US', page: 1, pageSize: 30 };
const ids = (r: { items: { id: string }[] }) => r.items.map((p) => p.id);

describe('news triage in the cache', () => {
  it('counts unread stories of the culture and lists only them on request, newest first', () => {
    const s = seeded();
    const all = listPostsTriaged(s.db, page);
    expect(ids(all)).toEqual(['3', '2', '1']);
    expect(all.unread).toBe(2);
    const unread = listPostsTriaged(s.db, { ...page, unreadOnly: true });
    expect(ids(unread)).toEqual(['2', '1']);
    expect(unread.total).toBe(2);
  });

  it('lists the stories carrying a tag, exactly (not a substring)', () => {
    const s = seeded();
    expect(ids(listPostsTriaged(s.db, { ...page, tag: 'Fed' }))).toEqual(['3', '1']);
    expect(ids(listPostsTriaged(s.db, { ...page, tag: 'Fe' }))).toEqual([]);
    expect(ids(listPostsTriaged(s.db, { ...page, tag: 'Fed', unreadOnly: true }))).toEqual(['1']);
  });

  it('marks all stories of one culture read, leaving the others', () => {
    const s = seeded();
    expect(markAllPostsRead(s.db, 'en-US')).toBe(2);
    expect(listPostsTriaged(s.db, page).unread).toBe(0);
    expect(listPostsTriaged(s.db, { ...page, culture: 'es-ES' }).unread).toBe(1);
  });
});
