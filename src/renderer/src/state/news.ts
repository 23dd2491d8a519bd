/** News: pages from the cache, the open post, full-text search. */
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
  load(page?: number): Promise<void>;
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
    async load(page = 1) {
      const r = await bridge.api.listPosts({
        culture: get().culture ?? undefined,
        page: 1,
        pageSize: PAGE_SIZE * page,
      });
      set({ items: r.items, total: r.total, page });
    },
    async setCulture(culture) {
      set({ culture, post: null });
      await get().load(1);
    },
    async open(id, culture) {
      const post = await bridge.api.getPost({ id, culture });
      set({
        post,
        items: get().items.map((p) =>
          p.id === id && p.culture === culture ? { ...p, read: true } : p,
        ),
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
  bridge.on('changes', (changes) => {
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
  return store;
}
