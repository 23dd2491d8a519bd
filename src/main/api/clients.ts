/**
 * Calendar and news clients. Every call carries the scope's token; a 401 drops it,
 * refreshes once and retries once (authorized-call.ts). Responses are validated (loosely:
 * unknown fields are kept) and returned with the raw JSON, so the store never loses a
 * field (validate.ts). One file per API: calendar-client.ts, news-client.ts.
 */
import type {
  Asset,
  CalendarEvent,
  Category,
  EventDate,
  Post,
  Scope,
  ServiceUrls,
} from '../../shared/domain.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { defaultHttpClient, type HttpClient } from '../../node/http/client.js';
import type { Logger } from '../../node/log/logger.js';
import { createWebhookClient, type WebhookClient } from '../../node/service/webhooks.js';
import type { Raw } from '../sync/ports.js';
import { authorizedCall, baseUrl } from '../../node/service/authorized-call.js';
import { calendarClient } from './calendar-client.js';
import { newsClient } from './news-client.js';
import type { OnInvalidItem } from './validate.js';

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

export function createApiClients(opts: ApiClientOptions): {
  calendar: CalendarClient;
  news: NewsClient;
  http: HttpClient;
} {
  const http = opts.http ?? defaultHttpClient();
  const base = baseUrl(opts.urls);
  const call = authorizedCall(base, opts.tokens, http);
  const onInvalid: OnInvalidItem = (endpoint, issues) =>
    opts.logger?.warn({ endpoint, issues }, 'skipped an invalid item');
  const webhooks = (scope: Scope): WebhookClient =>
    createWebhookClient({
      scope,
      baseUrl: () => base(scope),
      tokens: opts.tokens,
      http,
      onInvalidItem: (why) => onInvalid(`${scope} webhooks`, why),
    });
  return {
    calendar: calendarClient({
      call,
      language: opts.language,
      webhooks: webhooks('calendar'),
      onInvalid,
    }),
    news: newsClient({ call, webhooks: webhooks('news'), onInvalid }),
    http,
  };
}
