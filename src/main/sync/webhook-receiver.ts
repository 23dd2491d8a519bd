/**
 * A loopback webhook endpoint for demo mode: the embedded simulator delivers its webhooks
 * here, straight into the same apply path the relay feeds — so demo data is live to the
 * second without a relay. (Real users are behind NAT: they use the relay or polling.)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { readJson } from '../../node/http/server/body.js';
import { ReplyError } from '../../node/http/server/reply-error.js';
import { sendReplyError } from '../../node/http/server/respond.js';
import { Router, type Route } from '../../node/http/server/router.js';
import { constantTimeEqual } from '../../node/security/compare.js';

export interface WebhookReceiver {
  url: string;
  close(): Promise<void>;
}

interface ReceiverContext {
  secret: string;
  /** Apply one payload after every earlier one (arrival order, like the relay consumer). */
  applyInOrder(payload: unknown): Promise<void>;
  logger?: Logger;
}

const routes: Route<ReceiverContext>[] = [
  {
    method: 'POST',
    path: '/hooks/:secret',
    async handle({ ctx, req, res, params }) {
      if (!constantTimeEqual(params.secret ?? '', ctx.secret))
        throw new ReplyError(404, 'not_found', 'Not found');
      const payload = await readJson(req);
      try {
        await ctx.applyInOrder(payload);
      } catch (err) {
        ctx.logger?.warn({ err }, 'demo webhook not applied; the simulator retries');
        throw new ReplyError(503, 'not_applied', 'Not applied; retry');
      }
      res.writeHead(204).end();
    },
  },
];
const router = new Router(routes);

export async function startWebhookReceiver(opts: {
  apply: (payload: unknown) => Promise<void>;
  logger?: Logger;
}): Promise<WebhookReceiver> {
  let chain = Promise.resolve();
  const ctx: ReceiverContext = {
    secret: randomBytes(16).toString('base64url'),
    logger: opts.logger,
    applyInOrder(payload) {
      const applied = chain.then(() => opts.apply(payload));
      chain = applied.catch(() => undefined);
      return applied;
    },
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const { route, params } = router.find(req.method ?? 'GET', url.pathname);
    await route.handle({ ctx, req, res, url, params });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (err instanceof ReplyError) return sendReplyError(res, err);
      opts.logger?.error({ err }, 'demo webhook receiver failed');
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/${ctx.secret}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
