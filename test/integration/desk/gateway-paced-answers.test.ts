// @clock any-moment — its window is its own, generated around a fixed date
/**
 * Issue #44: one trader re-reading a window of megabytes made the relay push gigabytes in
 * seconds (2.2 GB in the read bucket's burst) while the desk's webhooks waited for the
 * CPU. Now a trader's answers are written at a bounded pace: the burst at once, then a
 * piece at a time at the pace, whole. The gateway runs in this process before a loopback
 * stand-in service with one large window (the simulator's are ~0.1 MB); the pace runs on a
 * clock only its own waits move, so the pauses are counted, not timed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenManager } from '../../../src/node/oauth/token-manager.js';
import { createGateway, type Gateway } from '../../../src/relay/gateway/index.js';
import { BURST_BYTES } from '../../../src/relay/gateway/paced-writer.js';
import { serveGateway } from './gateway-server.js';

const FROM = Date.parse('2026-01-05T00:00:00.000Z');
const DAY = 86_400_000;
const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const PIECE = 256 * 1024;
/** 12 MiB of dates over ten days (the relay takes at most 16 MiB from the service). */
const WINDOW = Buffer.from(
  JSON.stringify(
    Array.from({ length: 12 * 1024 }, (_, i) => ({
      id: `ed-${i}`,
      dateUtc: new Date(FROM + Math.floor((10 * DAY * i) / (12 * 1024))).toISOString(),
      notes: 'x'.repeat(1024 - 60),
    })),
  ),
);
let service: Server;
let relay: Server;
let gateway: Gateway;
let url = '';
let clock = 0;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  service = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'POST')
      return void res.end(
        JSON.stringify({ access_token: 'stand-in', token_type: 'Bearer', expires_in: 3600 }),
      );
    res.end(WINDOW);
  });
  const serviceUrl = await listen(service);
  const tokens = new TokenManager({
    authUrl: () => `${serviceUrl}/auth`,
    credentials: async () => ({ publicKey: 'pub', privateKey: 'priv' }),
  });
  gateway = createGateway({
    calendarUrl: `${serviceUrl}/calendar`,
    newsUrl: `${serviceUrl}/news`,
    tokens: () => tokens,
    monotonicNow: () => clock,
    wait: async (ms) => {
      clock += ms;
    },
  });
  ({ server: relay, url } = await serveGateway(gateway));
});

afterAll(async () => {
  await new Promise((r) => relay?.close(r));
  await new Promise((r) => service?.close(r));
});

async function read(user: string, endMs: number) {
  const before = gateway.stats().paused;
  const res = await request(
    `${url}/service/calendar/en/api/v1/eventDates/${at(FROM)}/${at(endMs)}`,
    { headers: { authorization: `Bearer ${user}` } },
  );
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, body, paused: gateway.stats().paused - before };
}

describe("a trader's large answers", () => {
  it('are written at the pace past the burst, whole', async () => {
    const pieces = Math.ceil(WINDOW.length / PIECE);
    expect(WINDOW.length).toBeGreaterThan(BURST_BYTES / 2);
    // Within the burst: at once.
    const first = await read('mallory', FROM + 10 * DAY);
    expect([first.status, first.body.equals(WINDOW), first.paused]).toEqual([200, true, 0]);
    // The rest of the burst, then each piece waits for its bytes.
    const left = Math.floor((BURST_BYTES - WINDOW.length) / PIECE);
    const again = await read('mallory', FROM + 10 * DAY);
    expect([again.status, again.body.equals(WINDOW), again.paused]).toEqual([
      200,
      true,
      pieces - left,
    ]);
    // A cut ('[', the dates' bytes, ']': slices of the kept bytes) waits from its first piece.
    const cut = await read('mallory', FROM + 5 * DAY);
    expect(cut.status).toBe(200);
    expect(cut.paused).toBe(Math.ceil((cut.body.length - 2) / PIECE) + 2);
    const dates = JSON.parse(cut.body.toString()) as { dateUtc: string }[];
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((d) => Date.parse(d.dateUtc) <= FROM + 5 * DAY)).toBe(true);
    // A colleague's read starts with a burst of their own.
    const bobs = await read('bob', FROM + 10 * DAY);
    expect([bobs.status, bobs.body.equals(WINDOW), bobs.paused]).toEqual([200, true, 0]);
  });
});
