/** The news API: one post, and the general feed a page at a time. */
import { z } from 'zod';
import { feedPageWireSchema, postWireSchema, toPost } from '../../shared/wire.js';
import type { WebhookClient } from '../../node/service/webhooks.js';
import { collectionRead } from '../../node/service/errors.js';
import type { ServiceCall } from '../../node/service/authorized-call.js';
import type { NewsClient } from './clients.js';
import { ResponseShapeError } from './errors.js';
import {
  cultureSchema,
  idSchema,
  input,
  many,
  one,
  pageSchema,
  type OnInvalidItem,
} from './validate.js';

const enc = encodeURIComponent;

export function newsClient(d: {
  call: ServiceCall;
  webhooks: WebhookClient;
  onInvalid: OnInvalidItem;
}): NewsClient {
  const { call } = d;
  return {
    async post(id, culture) {
      input(idSchema, id, 'post/{id}');
      input(cultureSchema, culture, 'post/{id}');
      return one(
        postWireSchema,
        (await call('news', 'GET', `/v4/${enc(culture)}/post/${enc(id)}`)).json,
        'post/{id}',
        (p) => toPost(p, culture),
      );
    },
    async feed(culture, page) {
      input(cultureSchema, culture, 'GeneralFeed');
      input(pageSchema, page, 'GeneralFeed');
      const res = await collectionRead('news', () =>
        call('news', 'GET', `/v4/${enc(culture)}/post/filter/GeneralFeed?page=${page}`),
      );
      const parsed = feedPageWireSchema.safeParse(res.json);
      if (!parsed.success)
        throw new ResponseShapeError('GeneralFeed', z.prettifyError(parsed.error));
      const items = many(
        postWireSchema,
        parsed.data.Values,
        'GeneralFeed',
        (p) => toPost(p, culture),
        d.onInvalid,
      );
      return {
        items,
        page: parsed.data.Page ?? page,
        pageSize: parsed.data.PageSize ?? parsed.data.Values.length,
        total: parsed.data.Total ?? items.length,
      };
    },
    webhooks: d.webhooks,
  };
}
