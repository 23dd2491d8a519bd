/** News: pages from the cache, the open post, full-text search. */
import { owning } from './owned.js';
import { createStore } from 'zustand/vanilla';
import type { Post, PostSummary, SearchHit } from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';

export const PAGE_SIZE = 30;

export interface NewsState {
  culture: string | null;
  items: PostSummary[];
  total: number;
  page: number;
  post: Post | null;
  query: string;
  hits: SearchHit[] | null;
  /** Unread stories of the culture, whatever the view. */
  unread: number;
  /** The list's view: only unread stories, only one tag. */
  unreadOnly: boolean;
  tag: string | null;
  /** Search results newest first instead of best first. */
  sortByDate: boolean;
  load(page?: number): Promise<void>;
  setView(view: { unreadOnly?: boolean; tag?: string | null }): Promise<void>;
  markAllRead(): Promise<void>;
  setSortByDate(on: boolean): void;
  setCulture(culture: string): Promise<void>;
  open(id: string, culture: string): Promise<void>;
  search(query: string): Promise<void>;
}

export function createNewsStore(bridge: Bridge) {
  const store = createStore<NewsState>()((set, get) => ({
    culture: null,
    items: [],
    total: 0,
    page: 1,
    post: null,
    query: '',
    hits: null,
    unread: 0,
    unreadOnly: false,
    tag: null,
    sortByDate: false,
    async load(page = 1) {
      const { unreadOnly, tag } = get();
      const r = await bridge.api.listPosts({
        culture: get().culture ?? undefined,
        page: 1,
        pageSize: PAGE_SIZE * page,
        ...(unreadOnly ? { unreadOnly } : {}),
        ...(tag ? { tag } : {}),
      });
      set({ items: r.items, total: r.total, page, unread: r.unread ?? 0 });
    },
    async setView(view) {
      set({ ...view, hits: null, query: '' });
      await get().load(1);
    },
    async markAllRead() {
      set({ items: get().items.map((p) => ({ ...p, read: true })), unread: 0 });
      await bridge.api.markAllPostsRead({ culture: get().culture ?? undefined });
      await get().load(get().page);
    },
    setSortByDate: (sortByDate) => set({ sortByDate }),
    async setCulture(culture) {
      set({ culture, post: null });
      await get().load(1);
    },
    async open(id, culture) {
      const post = await bridge.api.getPost({ id, culture });
      const wasUnread = get().items.some((p) => p.id === id && p.culture === culture && !p.read);
      set({
        post,
        items: get().items.map((p) =>
          p.id === id && p.culture === culture ? { ...p, read: true } : p,
        ),
        unread: Math.max(0, get().unread - (wasUnread ? 1 : 0)),
      });
      if (post) await bridge.api.markPostRead({ id, culture }).catch(() => undefined);
    },
    async search(query) {
      set({ query });
      if (!query.trim()) {
        set({ hits: null });
        return;
      }
      const hits = await bridge.api.searchPosts({
        query,
        culture: get().culture ?? undefined,
        limit: 50,
      });
      if (get().query === query) set({ hits });
    },
  }));
  const offChanges = bridge.on('changes', (changes) => {
    if (
      changes.some(
        (c) => c.kind === 'postPublished' || c.kind === 'postUpdated' || c.kind === 'postRemoved',
      )
    ) {
      void store
        .getState()
        .load(store.getState().page)
        .catch(() => undefined);
    }
  });
  return owning(store, [offChanges]);
}
