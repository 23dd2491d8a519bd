/** The calendar API: release dates (a window, one, an event's history), events, categories, assets. */
import {
  assetWireSchema,
  categoryWireSchema,
  eventDateWireSchema,
  eventWireSchema,
  toCalendarEvent,
  toEventDate,
} from '../../shared/wire.js';
import type { WebhookClient } from '../../node/service/webhooks.js';
import { collectionRead } from '../../node/service/errors.js';
import type { ServiceCall } from '../../node/service/authorized-call.js';
import type { CalendarClient } from './clients.js';
import {
  eventDatesQuerySchema,
  idSchema,
  input,
  many,
  one,
  type OnInvalidItem,
} from './validate.js';

const enc = encodeURIComponent;

export function calendarClient(d: {
  call: ServiceCall;
  language: () => string;
  webhooks: WebhookClient;
  onInvalid: OnInvalidItem;
}): CalendarClient {
  const { call, onInvalid } = d;
  const get = async (path: string) => (await call('calendar', 'GET', path)).json;
  /** A window or list read: a 404 there is a wrong URL, never "gone". */
  const list = (path: string) => collectionRead('calendar', () => get(path));
  const v1 = (path: string) => `/${enc(d.language())}/api/v1${path}`;
  return {
    async eventDates(query) {
      const q = input(eventDatesQuerySchema, query, 'eventDates');
      const params = new URLSearchParams();
      q.volatilities?.forEach((v) => params.append('volatilities', v));
      q.countries?.forEach((v) => params.append('countries', v));
      q.categories?.forEach((v) => params.append('categories', v));
      const qs = params.size > 0 ? `?${params}` : '';
      const json = await list(v1(`/eventDates/${enc(q.from)}/${enc(q.to)}${qs}`));
      return many(eventDateWireSchema, json, 'eventDates', toEventDate, onInvalid);
    },
    async eventDate(id) {
      input(idSchema, id, 'eventDates/{id}');
      const json = await get(v1(`/eventDates/${enc(id)}`));
      return one(eventDateWireSchema, json, 'eventDates/{id}', toEventDate);
    },
    async event(id) {
      input(idSchema, id, 'events/{id}');
      const json = await get(v1(`/events/${enc(id)}`));
      return one(eventWireSchema, json, 'events/{id}', toCalendarEvent);
    },
    async historical(eventId) {
      input(idSchema, eventId, 'historical');
      const json = await get(v1(`/events/${enc(eventId)}/historical`));
      return many(eventDateWireSchema, json, 'historical', toEventDate, onInvalid);
    },
    async categories() {
      const json = await list(v1('/categories'));
      const toCategory = (c: { id: string; name: string }) => ({ id: c.id, name: c.name });
      return many(categoryWireSchema, json, 'categories', toCategory, onInvalid).map(
        (r) => r.value,
      );
    },
    async assets() {
      const json = await list('/en/api/v1/marketImpact/assets');
      return many(
        assetWireSchema,
        json,
        'assets',
        (a) => ({ code: a.code, name: a.name, type: a.type }),
        onInvalid,
      ).map((r) => r.value);
    },
    webhooks: d.webhooks,
  };
}
