/** Routing for the simulated service: token endpoint, calendar, news, webhooks, control API. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { ASSETS, CATEGORY_LIST } from './data/categories.js';
import { translated } from './data/translations.js';
import type { Deliverer } from './deliveries.js';
import { decodeSegment, HttpError, readJson, sendError, sendJson } from './http-util.js';
import type { Autoplay, ScenarioClock } from './scenario.js';
import { postKey, type Api, type SimulatorState } from './state.js';
import type { TokenIssuer } from './tokens.js';
import type { World } from './world.js';

export interface ServerContext {
  state: SimulatorState;
  tokens: TokenIssuer;
  deliverer: Deliverer;
  world: World;
  clock: ScenarioClock;
  autoplay: Autoplay | null;
  log: (msg: string) => void;
}

const PAGE_SIZE = 20;

export function createHandler(ctx: ServerContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    route(ctx, req, res).catch((err: unknown) => {
      if (err instanceof HttpError) return sendError(res, err);
      ctx.log(`simulator error: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent)
        sendJson(res, 500, { error: 'server_error', message: 'Internal simulator error' });
      else res.destroy();
    });
  };
}

async function route(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://sim');
  } catch {
    throw new HttpError(400, 'invalid_path', 'The request target is not a valid path');
  }
  const path = url.pathname;
  const method = req.method ?? 'GET';

  if (path.startsWith('/_sim/')) return control(ctx, req, res, url);

  if (path === '/auth/v2/token') {
    if (method !== 'POST') throw methodNotAllowed('POST');
    return sendJson(res, 200, await ctx.tokens.handle(req), {
      'cache-control': 'no-store',
      pragma: 'no-cache',
    });
  }

  const api: Api | null = path.startsWith('/calendar/')
    ? 'calendar'
    : path.startsWith('/news/')
      ? 'news'
      : null;
  if (!api) throw new HttpError(404, 'not_found', `No route ${path}`);
  ctx.tokens.authorize(req.headers.authorization, api);
  ctx.state.apiRequests++;
  await injectApiFaults(ctx);

  const rest = path.slice(api.length + 1);
  if (rest === '/webhooks' || rest.startsWith('/webhooks/'))
    return webhooks(ctx, api, req, res, rest);
  if (method !== 'GET') throw methodNotAllowed('GET');
  if (api === 'calendar') return calendar(ctx, res, rest, url);
  return news(ctx, res, rest, url);
}

async function injectApiFaults(ctx: ServerContext): Promise<void> {
  const { faults } = ctx.state;
  if (faults.latencyMs) await new Promise((r) => setTimeout(r, faults.latencyMs));
  const f = faults.api;
  if (f && (f.count ?? 1) > 0) {
    if (f.count !== undefined) f.count--;
    if (f.count === 0) delete faults.api;
    const headers: Record<string, string> =
      f.retryAfterSec !== undefined ? { 'retry-after': String(f.retryAfterSec) } : {};
    throw new HttpError(
      f.status,
      f.status === 429 ? 'rate_limited' : 'server_error',
      `Injected ${f.status}`,
      headers,
    );
  }
}

function calendar(ctx: ServerContext, res: ServerResponse, rest: string, url: URL): void {
  const { state } = ctx;
  // names come back in the path's language (`/calendar/events/{id}` has none: English)
  const lang = /^\/([a-z]{2})\/api\/v1\//.exec(rest)?.[1] ?? 'en';
  let m = /^\/(?:[a-z]{2}\/api\/v1\/)?events\/([^/]+)(\/historical)?$/.exec(rest);
  if (m) {
    const model = state.events.get(decodeSegment(m[1] as string));
    if (!model) throw new HttpError(404, 'not_found', 'No such event');
    if (!m[2]) return sendJson(res, 200, translated(model.event, lang));
    const now = ctx.clock.now();
    const past = [
      ...model.history,
      ...[...state.eventDates.values()].filter((d) => d.eventId === model.event.id),
    ]
      .filter((d) => Date.parse(d.dateUtc) <= now && d.actual !== null)
      .sort((a, b) => b.dateUtc.localeCompare(a.dateUtc));
    return sendJson(
      res,
      200,
      past.map((d) => translated(d, lang)),
    );
  }
  m = /^\/[a-z]{2}\/api\/v1\/eventDates\/([^/]+)\/([^/]+)$/.exec(rest);
  if (m) {
    const from = Date.parse(decodeSegment(m[1] as string));
    const to = Date.parse(decodeSegment(m[2] as string));
    if (Number.isNaN(from) || Number.isNaN(to))
      throw new HttpError(400, 'invalid_date', 'from and to must be ISO-8601 dates');
    if (to < from) throw new HttpError(400, 'invalid_range', 'to is before from');
    if (to - from > 366 * 86_400_000)
      throw new HttpError(400, 'invalid_range', 'The range may span at most a year');
    const vols = url.searchParams.getAll('volatilities').map((v) => v.toUpperCase());
    const countries = url.searchParams.getAll('countries').map((v) => v.toUpperCase());
    const cats = url.searchParams.getAll('categories').map((v) => v.toUpperCase());
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
    return sendJson(
      res,
      200,
      list.map((d) => translated(d, lang)),
    );
  }
  m = /^\/[a-z]{2}\/api\/v1\/eventDates\/([^/]+)$/.exec(rest);
  if (m) {
    const ed = state.eventDates.get(decodeSegment(m[1] as string));
    if (!ed) throw new HttpError(404, 'not_found', 'No such event date');
    return sendJson(res, 200, translated(ed, lang));
  }
  if (/^\/[a-z]{2}\/api\/v1\/categories$/.test(rest)) return sendJson(res, 200, CATEGORY_LIST);
  if (/^\/[a-z]{2}\/api\/v1\/marketImpact\/assets$/.test(rest)) return sendJson(res, 200, ASSETS);
  throw new HttpError(404, 'not_found', `No route /calendar${rest}`);
}

function news(ctx: ServerContext, res: ServerResponse, rest: string, url: URL): void {
  let m = /^\/v4\/([a-z]{2}-[A-Z]{2})\/post\/filter\/GeneralFeed$/.exec(rest);
  if (m) {
    const culture = m[1] as string;
    const pageParam = url.searchParams.get('page') ?? '1';
    const page = Number(pageParam);
    if (!Number.isInteger(page) || page < 1)
      throw new HttpError(400, 'invalid_page', 'page must be an integer from 1');
    const all = [...ctx.state.posts.values()]
      .filter((p) => p.Culture === culture)
      .sort((a, b) => b.PublicationDate.localeCompare(a.PublicationDate));
    const values = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    return sendJson(res, 200, {
      Values: values,
      Page: page,
      PageSize: PAGE_SIZE,
      Total: all.length,
    });
  }
  m = /^\/v4\/([a-z]{2}-[A-Z]{2})\/post\/([^/]+)$/.exec(rest);
  if (m) {
    const post = ctx.state.posts.get(postKey(m[1] as string, decodeSegment(m[2] as string)));
    if (!post) throw new HttpError(404, 'not_found', 'No such post');
    return sendJson(res, 200, post);
  }
  throw new HttpError(404, 'not_found', `No route /news${rest}`);
}

async function webhooks(
  ctx: ServerContext,
  api: Api,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (rest === '/webhooks') {
    if (method === 'GET') return sendJson(res, 200, ctx.state.webhooks[api]);
    if (method !== 'POST') throw methodNotAllowed('GET, POST');
    const body = z.object({ url: z.string() }).safeParse(await readJson(req));
    if (!body.success)
      throw new HttpError(400, 'invalid_request', 'Body must be {"url": "https://…"}');
    const { webhook, created } = ctx.deliverer.register(api, body.data.url);
    return sendJson(res, created ? 201 : 200, webhook);
  }
  const id = decodeSegment(rest.slice('/webhooks/'.length));
  if (method !== 'DELETE') throw methodNotAllowed('DELETE');
  ctx.deliverer.remove(api, id);
  res.writeHead(204).end();
}

const eventBody = z.object({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  countryCode: z.string().min(2).max(4),
  currencyCode: z.string().min(3).max(3),
  description: z.string().optional(),
  categoryId: z.string().optional(),
  volatility: z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH']).optional(),
  unit: z.string().nullable().optional(),
  potency: z.enum(['ZERO', 'K', 'M', 'B', 'T']).optional(),
});
const nullableNumber = z.number().finite().nullable();
const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO-8601 date');
/** The event-date fields the control API may set (anything else is a 400). */
const eventDateFields = {
  dateUtc: isoDate,
  periodDateUtc: isoDate.nullable(),
  periodType: z.string().min(1).nullable(),
  actual: nullableNumber,
  revised: nullableNumber,
  consensus: nullableNumber,
  previous: nullableNumber,
  ratioDeviation: nullableNumber,
  isBetterThanExpected: z.boolean().nullable(),
  name: z.string().min(1),
  unit: z.string().nullable(),
  potency: z.enum(['ZERO', 'K', 'M', 'B', 'T']).nullable(),
  volatility: z.enum(['NONE', 'LOW', 'MEDIUM', 'HIGH']),
  isAllDay: z.boolean(),
  isTentative: z.boolean(),
  isPreliminary: z.boolean(),
};
const eventDateBody = z
  .strictObject({ eventId: z.string().min(1), id: z.string().min(1).optional() })
  .extend(z.object(eventDateFields).partial().shape);
const eventDatePatch = z.strictObject(eventDateFields).partial();
const postBody = z.object({
  id: z.string().min(1).optional(),
  culture: z.string().regex(/^[a-z]{2}-[A-Z]{2}$/),
  title: z.string().min(1).optional(),
  summary: z.string().optional(),
  content: z.string().optional(),
});
const postPatch = z.object({
  culture: z
    .string()
    .regex(/^[a-z]{2}-[A-Z]{2}$/)
    .default('en-US'),
  title: z.string().optional(),
  summary: z.string().optional(),
  content: z.string().optional(),
});
const clockBody = z.object({
  advanceMs: z
    .number()
    .int()
    .min(0)
    .max(366 * 86_400_000)
    .optional(),
  speed: z.number().min(0).max(10_000).optional(),
});
const faultsBody = z.object({
  token: z
    .object({
      status: z.number().int().min(400).max(599),
      error: z.string().min(1),
      count: z.number().int().positive().optional(),
    })
    .optional(),
  api: z
    .object({
      status: z.union([
        z.literal(429),
        z.literal(500),
        z.literal(502),
        z.literal(503),
        z.literal(504),
      ]),
      retryAfterSec: z.number().int().min(0).max(3600).optional(),
      count: z.number().int().positive().optional(),
    })
    .optional(),
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  tokenLifetimeSec: z.number().int().min(1).max(86_400).optional(),
  expireTokens: z.literal(true).optional(),
  deliveries: z
    .object({
      drop: z.number().int().min(0).optional(),
      duplicate: z.number().int().min(0).optional(),
    })
    .optional(),
});

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new HttpError(
      400,
      'invalid_request',
      r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    );
  }
  return r.data;
}

export function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1';
}

async function control(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress))
    throw new HttpError(403, 'forbidden', 'The control API is loopback-only');
  const method = req.method ?? 'GET';
  const path = url.pathname;
  const { world, state } = ctx;
  let m: RegExpExecArray | null;
  if (path === '/_sim/events' && method === 'POST')
    return sendJson(res, 201, world.createEvent(parse(eventBody, await readJson(req))));
  if (path === '/_sim/event-dates' && method === 'POST') {
    const body = parse(eventDateBody, await readJson(req));
    return sendJson(
      res,
      201,
      world.createEventDate(body as Parameters<World['createEventDate']>[0]),
    );
  }
  if ((m = /^\/_sim\/event-dates\/([^/]+)$/.exec(path))) {
    const id = decodeSegment(m[1] as string);
    if (method === 'PATCH') {
      const body = parse(eventDatePatch, await readJson(req));
      return sendJson(res, 200, world.patchEventDate(id, body));
    }
    if (method === 'DELETE') return sendJson(res, 200, world.deleteEventDate(id));
    throw methodNotAllowed('PATCH, DELETE');
  }
  if (path === '/_sim/posts' && method === 'POST')
    return sendJson(res, 201, world.createPost(parse(postBody, await readJson(req))));
  if ((m = /^\/_sim\/posts\/([^/]+)$/.exec(path))) {
    const id = decodeSegment(m[1] as string);
    if (method === 'PATCH') {
      const body = parse(postPatch, await readJson(req));
      return sendJson(res, 200, world.patchPost(id, body.culture, body));
    }
    if (method === 'DELETE')
      return sendJson(res, 200, world.deletePost(id, url.searchParams.get('culture') ?? 'en-US'));
    throw methodNotAllowed('PATCH, DELETE');
  }
  if (path === '/_sim/clock' && method === 'POST') {
    const body = parse(clockBody, await readJson(req));
    if (body.speed !== undefined) ctx.clock.setSpeed(body.speed);
    if (body.advanceMs) ctx.clock.advance(body.advanceMs);
    ctx.autoplay?.tick();
    return sendJson(res, 200, {
      now: new Date(ctx.clock.now()).toISOString(),
      speed: ctx.clock.speed,
    });
  }
  if (path === '/_sim/faults') {
    if (method === 'DELETE') {
      state.faults = {};
      return sendJson(res, 200, state.faults);
    }
    if (method !== 'POST') throw methodNotAllowed('POST, DELETE');
    const { expireTokens, ...faults } = parse(faultsBody, await readJson(req));
    if (expireTokens) ctx.tokens.expireAll();
    state.faults = { ...state.faults, ...faults };
    return sendJson(res, 200, state.faults);
  }
  if (path === '/_sim/deliveries' && method === 'GET') return sendJson(res, 200, state.deliveries);
  if (path === '/_sim/state' && method === 'GET') {
    return sendJson(res, 200, {
      now: new Date(ctx.clock.now()).toISOString(),
      speed: ctx.clock.speed,
      events: state.events.size,
      eventDates: state.eventDates.size,
      posts: state.posts.size,
      webhooks: state.webhooks,
      deliveries: state.deliveries.length,
      tokenRequests: state.tokenRequests,
      apiRequests: state.apiRequests,
    });
  }
  if (path === '/_sim/event-dates' && method === 'GET') {
    return sendJson(
      res,
      200,
      [...state.eventDates.values()].sort((a, b) => a.dateUtc.localeCompare(b.dateUtc)),
    );
  }
  if (CONTROL_PATHS.some((p) => p.test(path))) throw methodNotAllowed(allowedFor(path));
  throw new HttpError(404, 'not_found', `No control route ${method} ${path}`);
}

const CONTROL_ALLOW: [RegExp, string][] = [
  [/^\/_sim\/events$/, 'POST'],
  [/^\/_sim\/event-dates$/, 'GET, POST'],
  [/^\/_sim\/posts$/, 'POST'],
  [/^\/_sim\/clock$/, 'POST'],
  [/^\/_sim\/deliveries$/, 'GET'],
  [/^\/_sim\/state$/, 'GET'],
];
const CONTROL_PATHS = CONTROL_ALLOW.map(([re]) => re);
function allowedFor(path: string): string {
  return CONTROL_ALLOW.find(([re]) => re.test(path))?.[1] ?? 'GET';
}

function methodNotAllowed(allow: string): HttpError {
  return new HttpError(405, 'method_not_allowed', `Use ${allow}`, { allow });
}
