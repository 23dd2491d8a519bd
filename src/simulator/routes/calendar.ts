/** The calendar API: events, their history, event dates by window or id, categories, assets. */
import { ASSETS, CATEGORY_LIST } from '../data/categories.js';
import { translated } from '../data/translations.js';
import { ReplyError } from '../../node/http/server/reply-error.js';
import { sendJson } from '../../node/http/server/respond.js';
import type { Request, Route } from './router.js';

// Names come back in the path's language (`/calendar/events/{id}` has none: English).
const V1 = '/calendar/:lang([a-z]{2})/api/v1';
const MAX_RANGE_MS = 366 * 86_400_000;

function event({ ctx, res, params }: Request): void {
  const model = ctx.state.events.get(params.id as string);
  if (!model) throw new ReplyError(404, 'not_found', 'No such event');
  sendJson(res, 200, translated(model.event, params.lang ?? 'en'));
}

function history({ ctx, res, params }: Request): void {
  const { state } = ctx;
  const model = state.events.get(params.id as string);
  if (!model) throw new ReplyError(404, 'not_found', 'No such event');
  const now = ctx.clock.now();
  const past = [
    ...model.history,
    ...[...state.eventDates.values()].filter((d) => d.eventId === model.event.id),
  ]
    .filter((d) => Date.parse(d.dateUtc) <= now && d.actual !== null)
    .sort((a, b) => b.dateUtc.localeCompare(a.dateUtc));
  sendJson(
    res,
    200,
    past.map((d) => translated(d, params.lang ?? 'en')),
  );
}

function window({ ctx, res, url, params }: Request): void {
  const { state } = ctx;
  const from = Date.parse(params.from as string);
  const to = Date.parse(params.to as string);
  if (Number.isNaN(from) || Number.isNaN(to))
    throw new ReplyError(400, 'invalid_date', 'from and to must be ISO-8601 dates');
  if (to < from) throw new ReplyError(400, 'invalid_range', 'to is before from');
  if (to - from > MAX_RANGE_MS)
    throw new ReplyError(400, 'invalid_range', 'The range may span at most a year');
  const upper = (name: string) => url.searchParams.getAll(name).map((v) => v.toUpperCase());
  const vols = upper('volatilities');
  const countries = upper('countries');
  const cats = upper('categories');
  const list = [...state.eventDates.values()]
    .filter((d) => {
      const t = Date.parse(d.dateUtc);
      if (t < from || t > to) return false;
      if (vols.length && !vols.includes(d.volatility)) return false;
      if (countries.length && !countries.includes(d.countryCode)) return false;
      if (cats.length) {
        const cat = state.events.get(d.eventId)?.event.categoryId.toUpperCase();
        if (!cat || !cats.includes(cat)) return false;
      }
      return true;
    })
    .sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
  sendJson(
    res,
    200,
    list.map((d) => translated(d, params.lang as string)),
  );
}

function eventDate({ ctx, res, params }: Request): void {
  const ed = ctx.state.eventDates.get(params.id as string);
  if (!ed) throw new ReplyError(404, 'not_found', 'No such event date');
  sendJson(res, 200, translated(ed, params.lang as string));
}

export const calendarRoutes: Route[] = [
  { method: 'GET', path: '/calendar/events/:id', handle: event },
  { method: 'GET', path: `${V1}/events/:id`, handle: event },
  { method: 'GET', path: '/calendar/events/:id/historical', handle: history },
  { method: 'GET', path: `${V1}/events/:id/historical`, handle: history },
  { method: 'GET', path: `${V1}/eventDates/:from/:to`, handle: window },
  { method: 'GET', path: `${V1}/eventDates/:id`, handle: eventDate },
  {
    method: 'GET',
    path: `${V1}/categories`,
    handle: ({ res }) => sendJson(res, 200, CATEGORY_LIST),
  },
  {
    method: 'GET',
    path: `${V1}/marketImpact/assets`,
    handle: ({ res }) => sendJson(res, 200, ASSETS),
  },
];
