/** Webhook registrations, one list per API (calendar, news). */
import { z } from 'zod';
import { readJson } from '../../node/http/server/body.js';
import { sendJson } from '../../node/http/server/respond.js';
import type { Api } from '../state.js';
import { parseBody } from './parse.js';
import type { Route } from './router.js';

const registration = z.object({ url: z.string() });

const routesFor = (api: Api): Route[] => [
  {
    method: 'GET',
    path: `/${api}/webhooks`,
    handle: ({ ctx, res }) => sendJson(res, 200, ctx.state.webhooks[api]),
  },
  {
    method: 'POST',
    path: `/${api}/webhooks`,
    handle: async ({ ctx, req, res }) => {
      const body = parseBody(
        registration,
        await readJson(req),
        'Body must be {"url": "https://…"}',
      );
      const { webhook, created } = ctx.deliverer.register(api, body.url);
      sendJson(res, created ? 201 : 200, webhook);
    },
  },
  {
    method: 'DELETE',
    path: `/${api}/webhooks/:id`,
    handle: ({ ctx, res, params }) => {
      ctx.deliverer.remove(api, params.id as string);
      res.writeHead(204).end();
    },
  },
];

export const webhookRoutes: Route[] = [...routesFor('calendar'), ...routesFor('news')];
