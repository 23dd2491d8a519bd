/**
 * Baseline for the benchmarks: a pass-through relay in the smee.io style — it answers 204
 * at once, stores nothing and forwards to whoever is connected, with in-memory ids.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const clients = new Set<ServerResponse>();
let seq = 0;
const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      const frame = `id: ${++seq}\nevent: notification\ndata: ${Buffer.concat(chunks).toString('utf8')}\n\n`;
      for (const c of clients) c.write(frame);
    });
    return;
  }
  if (req.url?.startsWith('/events')) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hello\n\n');
    clients.add(res);
    req.on('close', () => clients.delete(res));
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `passthrough listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
