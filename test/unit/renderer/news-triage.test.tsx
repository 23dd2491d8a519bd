// @vitest-environment jsdom
/** News triage (issue #16, 14) and keyboard reading (10): as a reader uses them. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Post, PostSummary } from '../../../src/shared/domain.js';
import { mount } from './harness.js';

afterEach(cleanup);

const summary = (i: number, read = false): PostSummary => ({
  id: `p${i}`,
  culture: 'en-US',
  title: `Story ${i}`,
  summary: null,
  publicationDate: `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00Z`,
  authorName: 'Desk',
  read,
});
const full = (s: PostSummary): Post => ({
  ...s,
  contentHtml: '<p>Body</p>',
  updateDate: null,
  url: null,
  imageUrl: null,
  companyName: null,
  categories: [],
  tags: ['Fed', 'USD'],
});

function mountNews() {
  const posts = [summary(3), summary(2), summary(1, true)];
  const t = mount([], {
    listPosts: (q) => {
      const { unreadOnly, tag } = q as { unreadOnly?: boolean; tag?: string };
      const items = posts.filter((p) => (!unreadOnly || !p.read) && (!tag || p.id !== 'p2'));
      return { items, page: 1, pageSize: 30, total: items.length, unread: 2 };
    },
    getPost: (q) => full(posts.find((p) => p.id === (q as { id: string }).id) as PostSummary),
    markPostRead: () => null,
    markAllPostsRead: () => null,
    searchPosts: () => [
      {
        id: 'p1',
        culture: 'en-US',
        title: 'Old but best',
        snippetHtml: 'x',
        publicationDate: '2026-11-01T00:00:00Z',
      },
      {
        id: 'p3',
        culture: 'en-US',
        title: 'New',
        snippetHtml: 'y',
        publicationDate: '2026-11-20T00:00:00Z',
      },
    ],
  });
  return t;
}
const goNews = () =>
  fireEvent.click(
    within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: /^News/ }),
  );

describe('news triage', () => {
  it('shows the unread count on the News entry and on the screen', async () => {
    mountNews();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect((await within(nav).findByLabelText('2 unread')).textContent).toBe('2');
    goNews();
    expect((await screen.findByTestId('news-unread')).textContent).toBe('2 unread');
  });

  it('marks all read, filters to unread only, and filters by a clicked tag', async () => {
    const t = mountNews();
    goNews();
    await screen.findByText('Story 3');
    fireEvent.click(screen.getByRole('button', { name: 'Unread only' }));
    await waitFor(() => expect(screen.queryByText('Story 1')).toBeNull());
    expect(t.calls).toContainEqual(['listPosts', expect.objectContaining({ unreadOnly: true })]);
    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(t.calls.some(([m]) => m === 'markAllPostsRead')).toBe(true));
    fireEvent.click(screen.getByText('Story 3'));
    fireEvent.click(await screen.findByRole('button', { name: 'Stories tagged Fed' }));
    await waitFor(() =>
      expect(t.calls).toContainEqual(['listPosts', expect.objectContaining({ tag: 'Fed' })]),
    );
    expect(await screen.findByRole('button', { name: 'Tag Fed: show all stories' })).toBeTruthy();
  });

  it('sorts search results newest first on request', async () => {
    mountNews();
    goNews();
    fireEvent.change(await screen.findByLabelText('Search news'), { target: { value: 'gold' } });
    await screen.findByText('Old but best');
    const titles = () =>
      [...document.querySelectorAll('[data-testid=post-item] .post-title')].map(
        (e) => e.textContent,
      );
    expect(titles()).toEqual(['Old but best', 'New']);
    fireEvent.click(screen.getByRole('button', { name: 'Newest first' }));
    expect(titles()).toEqual(['New', 'Old but best']);
  });

  it('j/k and ↓/↑ read the next and previous story', async () => {
    mountNews();
    goNews();
    await screen.findByText('Story 3');
    const list = screen.getByRole('list', { name: 'Latest news' });
    act(() => list.focus());
    fireEvent.keyDown(list, { key: 'j' });
    expect((await screen.findByTestId('post-reader')).getAttribute('aria-label')).toBe('Story 3');
    fireEvent.keyDown(list, { key: 'j' });
    await waitFor(() =>
      expect(screen.getByTestId('post-reader').getAttribute('aria-label')).toBe('Story 2'),
    );
    expect(document.activeElement?.textContent).toContain('Story 2');
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    await waitFor(() =>
      expect(screen.getByTestId('post-reader').getAttribute('aria-label')).toBe('Story 3'),
    );
  });
});
