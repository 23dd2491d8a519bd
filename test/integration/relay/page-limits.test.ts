/**
 * Issue #35, item 6: `/events/page` reads that are never taken cannot pile up. 700 such
 * requests held ~400 MB; now one trader has at most PAGES_IN_FLIGHT_PER_USER page reads
 * in flight across the desk (the legacy single token more, not without end), and a page
 * the client does not take within PAGE_SEND_TIMEOUT_MS is cut.
 */
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { PAGES_IN_FLIGHT_PER_USER } from '../../../src/relay/routes/page.js';
import { SECRET, TOKEN, post, tempDir, waitFor } from './helpers.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A page read that sends its request and never reads a byte: the status line, if any came. */
function deafPage(url: string, token: string): Promise<{ socket: Socket; status: () => number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let head = '';
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        `GET /events/page?after=0&limit=1000 HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      );
      // Read the first bytes only (the status line), then stop reading for good.
      socket.once('data', (d: Buffer) => {
        head = d.toString('latin1', 0, 20);
        socket.pause();
      });
      resolve({ socket, status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0) });
    });
    socket.on('error', reject);
  });
}

describe('page reads never taken', () => {
  it('are capped per trader across the desk; the others are refused with 429', async () => {
    const data = tempDir();
    const relay = await startRelay({
      dataDir: data,
      secret: SECRET,
      token: TOKEN,
      desk: { keys: null, authUrl: '' },
    });
    cleanups.push(() => relay.close());
    const db = openRelayDatabase(data);
    const { token } = new UserDirectory(db).add('mallory');
    db.close();
    // Pages of 1 MiB, far more than a socket takes without being read.
    const pad = 'x'.repeat(1024 * 1024 - 100);
    for (let i = 0; i < 24; i++)
      expect((await post(relay.webhookUrl, JSON.stringify({ type: 't', i, pad }))).status).toBe(
        204,
      );
    const reads: Awaited<ReturnType<typeof deafPage>>[] = [];
    for (let i = 0; i < 40; i++) reads.push(await deafPage(relay.url, token));
    cleanups.push(() => reads.forEach((r) => r.socket.destroy()));
    await waitFor(() => reads.every((r) => r.status() !== 0), 'every read answered');
    const statuses = reads.map((r) => r.status());
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(PAGES_IN_FLIGHT_PER_USER);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      40 - PAGES_IN_FLIGHT_PER_USER,
    );
    // A colleague is not held back by mallory's stalled reads.
    const db2 = openRelayDatabase(data);
    const ana = new UserDirectory(db2).add('ana').token;
    db2.close();
    const res = await request(`${relay.url}/events/page?after=0&limit=1`, {
      headers: { authorization: `Bearer ${ana}` },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  }, 60_000);
});
