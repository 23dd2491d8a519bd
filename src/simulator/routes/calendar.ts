/** The calendar API: events, their history, event dates by window or id, categories, assets. */
import { ASSETS, CATEGORY_LIST } from '../data/categories.js';
import { translated } from '../data/translations.js';
import { ReplyError } from '../../node/http/server/reply-error.js';
import { sendJson } from '../../node/http/server/respond.js';
import type { SimulatorState } from '../state.js';
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

/** The event dates of [from, to] under the API's filters (upper case), in time order. */
function eventDatesInWindow(
  state: SimulatorState,
  from: number,
  to: number,
  f: { vols: string[]; countries: string[]; cats: string[] } = {
    vols: [],
    countries: [],
    cats: [],
  },
) {
  return [...state.eventDates.values()]
    .filter((d) => {
      const t = Date.parse(d.dateUtc);
      if (t < from || t > to) return false;
      if (f.vols.length && !f.vols.includes(d.volatility)) return false;
      if (f.countries.length && !f.countries.includes(d.countryCode)) return false;
      if (f.cats.length) {
        const cat = state.events.get(d.eventId)?.event.categoryId.toUpperCase();
        if (!cat || !f.cats.includes(cat)) return false;
      }
      return true;
    })
    .sort((a, b) => a.dateUtc.localeCompare(b.dateUtc));
}

/**
 * The calendar window exactly as `GET …/eventDates/{from}/{to}` serves it (the same JSON),
 * without a request or a token: the demo's first view on an empty data folder.
 */
export function calendarWindowJson(
  state: SimulatorState,
  from: number,
  to: number,
  lang: string,
): unknown[] {
  const list = eventDatesInWindow(state, from, to).map((d) => translated(d, lang));
  return JSON.parse(JSON.stringify(list)) as unknown[];
}

function window({ ctx, res, url, params }: Request): void {
  const from = Date.parse(params.from as string);
  const to = Date.parse(params.to as string);
  if (Number.isNaN(from) || Number.isNaN(to))
    throw new ReplyError(400, 'invalid_date', 'from and to must be ISO-8601 dates');
  if (to < from) throw new ReplyError(400, 'invalid_range', 'to is before from');
  if (to - from > MAX_RANGE_MS)
    throw new ReplyError(400, 'invalid_range', 'The range may span at most a year');
  const upper = (name: string) => url.searchParams.getAll(name).map((v) => v.toUpperCase());
  const list = eventDatesInWindow(ctx.state, from, to, {
    vols: upper('volatilities'),
    countries: upper('countries'),
    cats: upper('categories'),
  });
  sendJson(
    res,
    200,
    list.map((d) => translated(d, params.lang as string)),
  );
}

function eventDate({ ctx, res, params }: Request): void {
  const id = params.id as string;
  const ed = ctx.state.eventDates.get(id);
  if (!ed) throw new ReplyError(404, 'not_found', 'No such event date');
  ctx.state.eventDateReads.set(id, (ctx.state.eventDateReads.get(id) ?? 0) + 1);
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
