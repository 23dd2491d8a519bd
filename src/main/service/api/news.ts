/** The news reader's requests: pages (triaged), one post, read marks, search. */
import type { AppApi } from '../../../shared/ipc.js';
import { listPostsTriaged, markAllPostsRead } from '../../store/news-triage.js';
import type { ApiTableDeps } from './deps.js';

export function newsApi(
  d: Pick<ApiTableDeps, 'store' | 'effective'>,
): Pick<AppApi, 'listPosts' | 'markAllPostsRead' | 'getPost' | 'markPostRead' | 'searchPosts'> {
  const { store, effective } = d;
  return {
    listPosts: async (q) => {
      const r = listPostsTriaged(store.db, { ...q, culture: q.culture ?? effective().cultures[0] });
      return { ...r, page: q.page, pageSize: q.pageSize };
    },
    markAllPostsRead: async ({ culture }) => {
      markAllPostsRead(store.db, culture ?? effective().cultures[0]);
      return null;
    },
    getPost: async ({ id, culture }) => store.getPost(id, culture),
    markPostRead: async ({ id, culture }) => {
      store.markPostRead(id, culture);
      return null;
    },
    searchPosts: async (q) => store.searchPosts(q),
  };
}
