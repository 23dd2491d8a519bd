/**
 * The control API (`/_sim/…`, loopback only): tests and the demo create, change and delete
 * records, move the clock and inject faults.
 */
import { readJson } from '../../node/http/server/body.js';
import { sendJson } from '../../node/http/server/respond.js';
import type { World } from '../world.js';
import {
  clockBody,
  eventBody,
  eventDateBody,
  eventDatePatch,
  faultsBody,
  postBody,
  postPatch,
} from './control-schemas.js';
import { parseBody } from './parse.js';
import type { Route } from './router.js';

const nowIso = (ms: number) => new Date(ms).toISOString();

export const controlRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_sim/events',
    handle: async ({ ctx, req, res }) =>
      sendJson(res, 201, ctx.world.createEvent(parseBody(eventBody, await readJson(req)))),
  },
  {
    method: 'GET',
    path: '/_sim/event-dates',
    handle: ({ ctx, res }) =>
      sendJson(
        res,
        200,
        [...ctx.state.eventDates.values()].sort((a, b) => a.dateUtc.localeCompare(b.dateUtc)),
      ),
  },
  {
    method: 'POST',
    path: '/_sim/event-dates',
    handle: async ({ ctx, req, res }) => {
      const body = parseBody(eventDateBody, await readJson(req));
      sendJson(
        res,
        201,
        ctx.world.createEventDate(body as Parameters<World['createEventDate']>[0]),
      );
    },
  },
  {
    method: 'PATCH',
    path: '/_sim/event-dates/:id',
    handle: async ({ ctx, req, res, params }) => {
      const body = parseBody(eventDatePatch, await readJson(req));
      sendJson(res, 200, ctx.world.patchEventDate(params.id as string, body));
    },
  },
  {
    method: 'DELETE',
    path: '/_sim/event-dates/:id',
    handle: ({ ctx, res, params }) =>
      sendJson(res, 200, ctx.world.deleteEventDate(params.id as string)),
  },
  {
    method: 'POST',
    path: '/_sim/posts',
    handle: async ({ ctx, req, res }) =>
      sendJson(res, 201, ctx.world.createPost(parseBody(postBody, await readJson(req)))),
  },
  {
    method: 'PATCH',
    path: '/_sim/posts/:id',
    handle: async ({ ctx, req, res, params }) => {
      const body = parseBody(postPatch, await readJson(req));
      sendJson(res, 200, ctx.world.patchPost(params.id as string, body.culture, body));
    },
  },
  {
    method: 'DELETE',
    path: '/_sim/posts/:id',
    handle: ({ ctx, res, url, params }) =>
      sendJson(
        res,
        200,
        ctx.world.deletePost(params.id as string, url.searchParams.get('culture') ?? 'en-US'),
      ),
  },
  {
    method: 'POST',
    path: '/_sim/clock',
    handle: async ({ ctx, req, res }) => {
      const body = parseBody(clockBody, await readJson(req));
      if (body.speed !== undefined) ctx.clock.setSpeed(body.speed);
      if (body.advanceMs) ctx.clock.advance(body.advanceMs);
      ctx.autoplay?.tick();
      sendJson(res, 200, { now: nowIso(ctx.clock.now()), speed: ctx.clock.speed });
    },
  },
  {
    method: 'POST',
    path: '/_sim/faults',
    handle: async ({ ctx, req, res }) => {
      const { expireTokens, ...faults } = parseBody(faultsBody, await readJson(req));
      if (expireTokens) ctx.tokens.expireAll();
      ctx.state.faults = { ...ctx.state.faults, ...faults };
      sendJson(res, 200, ctx.state.faults);
    },
  },
  {
    method: 'DELETE',
    path: '/_sim/faults',
    handle: ({ ctx, res }) => {
      ctx.state.faults = {};
      sendJson(res, 200, ctx.state.faults);
    },
  },
  {
    method: 'GET',
    path: '/_sim/deliveries',
    handle: ({ ctx, res }) => sendJson(res, 200, ctx.state.deliveries),
  },
  {
    method: 'GET',
    path: '/_sim/state',
    handle: ({ ctx, res }) => {
      const { state, clock } = ctx;
      sendJson(res, 200, {
        now: nowIso(clock.now()),
        speed: clock.speed,
        pace: clock.pace,
        events: state.events.size,
        eventDates: state.eventDates.size,
        posts: state.posts.size,
        webhooks: state.webhooks,
        deliveries: state.deliveries.length,
        tokenRequests: state.tokenRequests,
        eventDateReads: Object.fromEntries(state.eventDateReads),
        tokensIssued: state.tokensIssued,
        apiRequests: state.apiRequests,
      });
    },
  },
];
