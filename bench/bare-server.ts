/**
 * The ingest baseline as its own process: a bare Node HTTP server that reads each request
 * body and answers 204 without storing or checking anything. Run like the relay (a child
 * started by the bench with `--import tsx`), so both sit behind the same load generator.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = 204;
    res.end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`bare listening on http://127.0.0.1:${port}/hooks/x\n`);
});
process.on('SIGTERM', () => process.exit(0));
