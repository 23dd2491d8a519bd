/**
 * Calendar and news clients. Every call carries the scope's token; a 401 drops it,
 * refreshes once and retries once. Responses are validated (loosely: unknown fields are
 * kept) and returned with the raw JSON, so the store never loses a field.
 */
import { z } from 'zod';
import type {
  Asset,
  CalendarEvent,
  Category,
  EventDate,
  Post,
  Scope,
  ServiceUrls,
} from '../../shared/domain.js';
import {
  assetWireSchema,
  categoryWireSchema,
  eventDateWireSchema,
  eventWireSchema,
  feedPageWireSchema,
  postWireSchema,
  toCalendarEvent,
  toEventDate,
  toPost,
} from '../../shared/wire.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { defaultHttpClient, HttpError, type HttpClient } from '../../node/http/client.js';
import type { Logger } from '../../node/log/logger.js';
import { createWebhookClient, type WebhookClient } from '../../node/service/webhooks.js';
import type { Raw } from '../sync/ports.js';
import { ApiInputError, NotFoundError, ResponseShapeError } from './errors.js';

export type { WebhookClient } from '../../node/service/webhooks.js';

export interface EventDatesQuery {
  from: string;
  to: string;
  volatilities?: string[];
  countries?: string[];
  categories?: string[];
}

export interface CalendarClient {
  eventDates(q: EventDatesQuery): Promise<Raw<EventDate>[]>;
  eventDate(id: string): Promise<Raw<EventDate>>;
  event(id: string): Promise<Raw<CalendarEvent>>;
  historical(eventId: string): Promise<Raw<EventDate>[]>;
  categories(): Promise<Category[]>;
  assets(): Promise<Asset[]>;
  webhooks: WebhookClient;
}

export interface NewsClient {
  post(id: string, culture: string): Promise<Raw<Post>>;
  feed(
    culture: string,
    page: number,
  ): Promise<{ items: Raw<Post>[]; page: number; pageSize: number; total: number }>;
  webhooks: WebhookClient;
}

export interface ApiClientOptions {
  urls: () => ServiceUrls;
  language: () => string;
  tokens: TokenManager;
  http?: HttpClient;
  logger?: Logger;
}

const enc = encodeURIComponent;

const idSchema = z.string().trim().min(1).max(200);
const cultureSchema = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/, 'expected a culture such as en-US');
const pageSchema = z.number().int().min(1).max(10_000);
const listSchema = z.array(z.string().trim().min(1).max(100)).max(100).optional();
const eventDatesQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    volatilities: listSchema,
    countries: listSchema,
    categories: listSchema,
  })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['to'],
  });

/** Validate a caller's arguments; the error names the endpoint and the argument. */
function input<S extends z.ZodType>(schema: S, value: unknown, endpoint: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ApiInputError(endpoint, z.prettifyError(r.error));
  return r.data;
}

export function createApiClients(opts: ApiClientOptions): {
  calendar: CalendarClient;
  news: NewsClient;
  http: HttpClient;
} {
  const http = opts.http ?? defaultHttpClient();
  const base = (scope: Scope) => opts.urls()[scope].replace(/\/+$/, '');

  async function call(
    scope: Scope,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const url = `${base(scope)}${path}`;
    const send = async () =>
      http.requestJson({
        method,
        url,
        headers: {
          authorization: await opts.tokens.getAuthorization(scope),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      try {
        return await send();
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 401) throw err;
        opts.tokens.invalidate(scope);
        return await send();
      }
    } catch (err) {
      if (err instanceof HttpError && err.status === 404)
        throw new NotFoundError(`Not found: ${err.url}`);
      throw err;
    }
  }

  function one<S extends z.ZodType, T>(
    schema: S,
    json: unknown,
    endpoint: string,
    map: (v: z.infer<S>) => T,
  ): Raw<T> {
    const r = schema.safeParse(json);
    if (!r.success) throw new ResponseShapeError(endpoint, z.prettifyError(r.error));
    return { value: map(r.data), raw: json };
  }

  /** Lists: an invalid item is skipped and logged, not allowed to fail the page. */
  function many<S extends z.ZodType, T>(
    schema: S,
    json: unknown,
    endpoint: string,
    map: (v: z.infer<S>) => T,
  ): Raw<T>[] {
    if (!Array.isArray(json)) throw new ResponseShapeError(endpoint, 'expected an array');
    const out: Raw<T>[] = [];
    for (const item of json) {
      const r = schema.safeParse(item);
      if (r.success) out.push({ value: map(r.data), raw: item });
      else
        opts.logger?.warn(
          { endpoint, issues: z.prettifyError(r.error) },
          'skipped an invalid item',
        );
    }
    return out;
  }

  const webhooks = (scope: Scope): WebhookClient =>
    createWebhookClient({
      scope,
      baseUrl: () => base(scope),
      tokens: opts.tokens,
      http,
      onInvalidItem: (why) =>
        opts.logger?.warn(
          { endpoint: `${scope} webhooks`, issues: why },
          'skipped an invalid item',
        ),
    });

  const lang = () => enc(opts.language());
  const calendar: CalendarClient = {
    async eventDates(query) {
      const q = input(eventDatesQuerySchema, query, 'eventDates');
      const params = new URLSearchParams();
      q.volatilities?.forEach((v) => params.append('volatilities', v));
      q.countries?.forEach((v) => params.append('countries', v));
      q.categories?.forEach((v) => params.append('categories', v));
      const qs = params.size > 0 ? `?${params}` : '';
      const res = await call(
        'calendar',
        'GET',
        `/${lang()}/api/v1/eventDates/${enc(q.from)}/${enc(q.to)}${qs}`,
      );
      return many(eventDateWireSchema, res.json, 'eventDates', toEventDate);
    },
    async eventDate(id) {
      input(idSchema, id, 'eventDates/{id}');
      return one(
        eventDateWireSchema,
        (await call('calendar', 'GET', `/${lang()}/api/v1/eventDates/${enc(id)}`)).json,
        'eventDates/{id}',
        toEventDate,
      );
    },
    async event(id) {
      input(idSchema, id, 'events/{id}');
      return one(
        eventWireSchema,
        (await call('calendar', 'GET', `/${lang()}/api/v1/events/${enc(id)}`)).json,
        'events/{id}',
        toCalendarEvent,
      );
    },
    async historical(eventId) {
      input(idSchema, eventId, 'historical');
      return many(
        eventDateWireSchema,
        (await call('calendar', 'GET', `/${lang()}/api/v1/events/${enc(eventId)}/historical`)).json,
        'historical',
        toEventDate,
      );
    },
    async categories() {
      return many(
        categoryWireSchema,
        (await call('calendar', 'GET', `/${lang()}/api/v1/categories`)).json,
        'categories',
        (c) => ({ id: c.id, name: c.name }),
      ).map((r) => r.value);
    },
    async assets() {
      return many(
        assetWireSchema,
        (await call('calendar', 'GET', '/en/api/v1/marketImpact/assets')).json,
        'assets',
        (a) => ({ code: a.code, name: a.name, type: a.type }),
      ).map((r) => r.value);
    },
    webhooks: webhooks('calendar'),
  };

  const news: NewsClient = {
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
      const res = await call(
        'news',
        'GET',
        `/v4/${enc(culture)}/post/filter/GeneralFeed?page=${page}`,
      );
      const parsed = feedPageWireSchema.safeParse(res.json);
      if (!parsed.success)
        throw new ResponseShapeError('GeneralFeed', z.prettifyError(parsed.error));
      const items = many(postWireSchema, parsed.data.Values, 'GeneralFeed', (p) =>
        toPost(p, culture),
      );
      return {
        items,
        page: parsed.data.Page ?? page,
        pageSize: parsed.data.PageSize ?? parsed.data.Values.length,
        total: parsed.data.Total ?? items.length,
      };
    },
    webhooks: webhooks('news'),
  };

  return { calendar, news, http };
}
