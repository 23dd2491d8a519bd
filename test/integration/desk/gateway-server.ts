/** A gateway alone on a loopback port, for the gateway tests: the bearer is the trader's name. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RelayError } from '../../../src/relay/errors.js';
import type { Gateway } from '../../../src/relay/gateway/index.js';
import { sendReplyError } from '../../../src/relay/http-util.js';

export async function serveGateway(gateway: Gateway): Promise<{ server: Server; url: string }> {
  // Who is reading is all the gateway needs here: no token store in between.
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://relay');
    const user = /^Bearer (\w+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    gateway
      .route(req, res, u.pathname, u.searchParams, async () => user)
      .catch((err: unknown) => {
        if (err instanceof RelayError) sendReplyError(res, err);
        else res.destroy();
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
