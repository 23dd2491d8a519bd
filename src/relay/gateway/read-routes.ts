/**
 * The gateway's allow-list: exactly the read calls the desktop app makes (see
 * src/main/api/clients.ts), each mapped to the service path the relay requests and how
 * long an answer may be reused. Anything else — webhook management, other methods, odd
 * segments, unknown query parameters — matches nothing and the gateway answers 404.
 */
import { z } from 'zod';

export type GatewayScope = 'calendar' | 'news';

export interface ReadRoute {
  scope: GatewayScope;
  /** Canonical path and query on the service (re-encoded; also the cache key). */
  upstreamPath: string;
  /** How long a 200 may be served again without asking the service. */
  ttlMs: number;
  /** A name for logs and metrics. */
  name: string;
  /**
   * eventDates by window: the window asked for (unix ms). The service is asked for it
   * rounded out to whole minutes (so near-identical reads share one answer), and the
   * answer is cut back to it (window.ts).
   */
  window?: { from: number; to: number };
}

/** Event dates at most a second: the safety net near a release polls at about that pace. */
export const EVENT_DATES_TTL_MS = 1_000;
const EVENT_TTL_MS = 60_000;
const REFERENCE_TTL_MS = 10 * 60_000;
const POST_TTL_MS = 60_000;
const FEED_TTL_MS = 5_000;

const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/;
const ID = /^(?!\.\.?$)[\w.:~-]{1,200}$/;
const isoDate = z.iso.datetime({ offset: true });
const FILTER_VALUE = /^[\w .:-]{1,100}$/;
const FILTERS = ['volatilities', 'countries', 'categories'] as const;

const enc = encodeURIComponent;

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** eventDates' filters: only the three the app sends, each value checked, order kept. */
function eventDateFilters(query: URLSearchParams): string | null {
  const out = new URLSearchParams();
  for (const [key, value] of query) {
    if (!(FILTERS as readonly string[]).includes(key) || !FILTER_VALUE.test(value)) return null;
    out.append(key, value);
  }
  if ([...out.keys()].length > 300) return null;
  return out.size > 0 ? `?${out}` : '';
}

/** Windows are rounded out to this grid before the service is asked (and the cache keyed). */
export const WINDOW_GRID_MS = 60_000;
/** Longer windows are passed as asked: rounding could take them past the service's limit. */
const ROUND_UP_TO_MS = 300 * 86_400_000;

function roundedWindow(w: { from: number; to: number }): { from: number; to: number } | null {
  if (!(w.to >= w.from) || w.to - w.from > ROUND_UP_TO_MS) return null;
  return {
    from: Math.floor(w.from / WINDOW_GRID_MS) * WINDOW_GRID_MS,
    to: Math.ceil(w.to / WINDOW_GRID_MS) * WINDOW_GRID_MS,
  };
}

function noQuery(query: URLSearchParams): boolean {
  return query.size === 0;
}

function calendarRoute(parts: string[], query: URLSearchParams): ReadRoute | null {
  const [lang, api, v1, resource, a, b, extra] = parts;
  if (!lang || !LANG.test(lang) || api !== 'api' || v1 !== 'v1' || extra !== undefined) return null;
  const base = `/${lang}/api/v1`;
  const route = (path: string, ttlMs: number, name: string): ReadRoute => ({
    scope: 'calendar',
    upstreamPath: path,
    ttlMs,
    name,
  });
  if (resource === 'eventDates' && a !== undefined && b !== undefined) {
    const filters = eventDateFilters(query);
    if (filters === null || !isoDate.safeParse(a).success || !isoDate.safeParse(b).success)
      return null;
    const asked = { from: Date.parse(a), to: Date.parse(b) };
    const rounded = roundedWindow(asked);
    if (!rounded)
      return route(
        `${base}/eventDates/${enc(a)}/${enc(b)}${filters}`,
        EVENT_DATES_TTL_MS,
        'eventDates',
      );
    const [from, to] = [rounded.from, rounded.to].map((t) => enc(new Date(t).toISOString()));
    return {
      ...route(`${base}/eventDates/${from}/${to}${filters}`, EVENT_DATES_TTL_MS, 'eventDates'),
      window: asked,
    };
  }
  if (!noQuery(query)) return null;
  if (resource === 'eventDates' && a && ID.test(a) && b === undefined)
    return route(`${base}/eventDates/${enc(a)}`, EVENT_DATES_TTL_MS, 'eventDate');
  if (resource === 'events' && a && ID.test(a) && b === undefined)
    return route(`${base}/events/${enc(a)}`, EVENT_TTL_MS, 'event');
  if (resource === 'events' && a && ID.test(a) && b === 'historical')
    return route(`${base}/events/${enc(a)}/historical`, EVENT_TTL_MS, 'historical');
  if (resource === 'categories' && a === undefined)
    return route(`${base}/categories`, REFERENCE_TTL_MS, 'categories');
  if (resource === 'marketImpact' && a === 'assets' && b === undefined)
    return route(`${base}/marketImpact/assets`, REFERENCE_TTL_MS, 'assets');
  return null;
}

function newsRoute(parts: string[], query: URLSearchParams): ReadRoute | null {
  const [v4, culture, post, a, b, extra] = parts;
  if (v4 !== 'v4' || !culture || !LANG.test(culture) || post !== 'post' || extra !== undefined)
    return null;
  const base = `/v4/${culture}/post`;
  if (a === 'filter' && b === 'GeneralFeed') {
    const page = query.get('page');
    if (query.size !== 1 || page === null || !/^[1-9]\d{0,4}$/.test(page)) return null;
    return {
      scope: 'news',
      upstreamPath: `${base}/filter/GeneralFeed?page=${page}`,
      ttlMs: FEED_TTL_MS,
      name: 'newsFeed',
    };
  }
  if (a && ID.test(a) && b === undefined && noQuery(query))
    return { scope: 'news', upstreamPath: `${base}/${enc(a)}`, ttlMs: POST_TTL_MS, name: 'post' };
  return null;
}

/**
 * The read route for a request path under `/service/{scope}` (raw, still percent-encoded,
 * without the prefix) and its query, or null. Segments are decoded one by one and
 * checked, so an encoded slash or a dot segment can never reach another service path.
 */
export function matchReadRoute(
  scope: string,
  rawPath: string,
  query: URLSearchParams,
): ReadRoute | null {
  if (!rawPath.startsWith('/') || rawPath.includes('\\')) return null;
  const parts: string[] = [];
  for (const segment of rawPath.slice(1).split('/')) {
    const decoded = decode(segment);
    if (decoded === null || decoded === '' || /[/\\\s]/.test(decoded)) return null;
    parts.push(decoded);
  }
  if (scope === 'calendar') return calendarRoute(parts, query);
  if (scope === 'news') return newsRoute(parts, query);
  return null;
}
