/**
 * A loopback webhook endpoint for demo mode: the embedded simulator delivers its webhooks
 * here, straight into the same apply path the relay feeds — so demo data is live to the
 * second without a relay. (Real users are behind NAT: they use the relay or polling.)
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

export interface WebhookReceiver {
  url: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(opts: {
  apply: (payload: unknown) => Promise<void>;
  logger?: Logger;
}): Promise<WebhookReceiver> {
  const secret = randomBytes(16).toString('base64url');
  // Apply in arrival order, one at a time, like the relay consumer.
  let chain = Promise.resolve();
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== `/hooks/${secret}`) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      chain = chain
        .then(() => opts.apply(payload))
        .then(
          () => void res.writeHead(204).end(),
          (err: unknown) => {
            opts.logger?.warn({ err }, 'demo webhook not applied; the simulator retries');
            res.writeHead(503).end();
          },
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/${secret}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
