/** The news API: the general feed of a culture, page by page, and one post. */
import { ReplyError } from '../../node/http/server/reply-error.js';
import { sendJson } from '../../node/http/server/respond.js';
import { postKey } from '../state.js';
import type { Route } from './router.js';

const PAGE_SIZE = 20;
const V4 = '/news/v4/:culture([a-z]{2}-[A-Z]{2})';

export const newsRoutes: Route[] = [
  {
    method: 'GET',
    path: `${V4}/post/filter/GeneralFeed`,
    handle: ({ ctx, res, url, params }) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      if (!Number.isInteger(page) || page < 1)
        throw new ReplyError(400, 'invalid_page', 'page must be an integer from 1');
      const all = [...ctx.state.posts.values()]
        .filter((p) => p.Culture === params.culture)
        .sort((a, b) => b.PublicationDate.localeCompare(a.PublicationDate));
      sendJson(res, 200, {
        Values: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
        Page: page,
        PageSize: PAGE_SIZE,
        Total: all.length,
      });
    },
  },
  {
    method: 'GET',
    path: `${V4}/post/:id`,
    handle: ({ ctx, res, params }) => {
      const post = ctx.state.posts.get(postKey(params.culture as string, params.id as string));
      if (!post) throw new ReplyError(404, 'not_found', 'No such post');
      sendJson(res, 200, post);
    },
  },
];
