/** The HTTP client against a scripted server on 127.0.0.1: retries, Retry-After, errors. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpClient, HttpError, NetworkError } from '../../../src/node/http/client.js';
import { waitFor } from '../../support/wait.js';

type Reply = (req: IncomingMessage, res: ServerResponse) => void;
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

let script: Reply[] = [];
let seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(`${req.method} ${req.url}`);
  (script.shift() ?? json(200, { ok: true }))(req, res);
});
let base = '';
let sleeps: number[] = [];
const client = new HttpClient({ sleep: async (ms) => void sleeps.push(ms), random: () => 1 });

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  script = [];
  seen = [];
  sleeps = [];
});

describe('requestJson', () => {
  it('retries 5xx with growing backoff and returns the eventual answer', async () => {
    script = [json(503, {}), json(502, {}), json(200, { value: 42 })];
    const res = await client.requestJson({ url: `${base}/data` });
    expect(res.json).toEqual({ value: 42 });
    expect(seen).toHaveLength(3);
    // Full jitter with random()=1: the ceiling, doubling from 250 ms.
    expect(sleeps).toEqual([250, 500]);
  });

  it('honours Retry-After in seconds and as an HTTP date, capped', async () => {
    script = [json(429, {}, { 'retry-after': '3' }), json(200, {})];
    await client.requestJson({ url: `${base}/a` });
    expect(sleeps).toEqual([3000]);

    sleeps = [];
    const inFiveSec = new Date(Date.now() + 5_000).toUTCString();
    script = [json(503, {}, { 'retry-after': inFiveSec }), json(200, {})];
    await client.requestJson({ url: `${base}/b` });
    expect(sleeps).toHaveLength(1);
    // An HTTP date has one-second resolution; the test may also run slowly.
    expect(sleeps[0]).toBeGreaterThan(1_000);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000);

    sleeps = [];
    script = [json(429, {}, { 'retry-after': '3600' }), json(200, {})];
    await client.requestJson({ url: `${base}/c`, retry: { maxRetryAfterMs: 20_000 } });
    expect(sleeps).toEqual([20_000]);
  });

  it('never retries other 4xx, and its error has the status, a snippet and no query', async () => {
    script = [json(400, { error: 'bad_request', message: 'from is not a date' })];
    const err = await client
      .requestJson({ url: `${base}/x?apiKey=sk-QUERY-SECRET` })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as Error).message).toMatch(/HTTP 400 .*\/x: .*from is not a date/);
    expect((err as Error).message).not.toMatch(/QUERY-SECRET/);
    expect((err as HttpError).url).toBe(`${base}/x`);
    script = [json(404, {})];
    await expect(client.requestJson({ url: `${base}/y` })).rejects.toMatchObject({ status: 404 });
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it('gives up after the attempt limit, or when the total wait would be too long', async () => {
    script = Array.from({ length: 10 }, () => json(500, {}));
    await expect(client.requestJson({ url: `${base}/down` })).rejects.toMatchObject({
      status: 500,
    });
    expect(seen).toHaveLength(4);
    expect(sleeps).toHaveLength(3);

    seen = [];
    sleeps = [];
    script = Array.from({ length: 10 }, () => json(503, {}, { 'retry-after': '20' }));
    await expect(
      client.requestJson({ url: `${base}/slow`, retry: { maxTotalDelayMs: 30_000 } }),
    ).rejects.toMatchObject({ status: 503 });
    expect(sleeps).toEqual([20_000]);
    expect(seen).toHaveLength(2);
  });

  it('sends method, headers and body, and rejects a non-JSON success', async () => {
    let received = '';
    script = [
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received = `${req.method} ${req.headers['content-type']} ${body}`;
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end('{"id":"w1"}');
        });
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>maintenance</html>');
      },
    ];
    const res = await client.requestJson({
      method: 'POST',
      url: `${base}/webhooks`,
      headers: { 'content-type': 'application/json' },
      body: '{"url":"https://a.example"}',
    });
    expect(res).toMatchObject({ status: 201, json: { id: 'w1' } });
    expect(received).toBe('POST application/json {"url":"https://a.example"}');
    await expect(client.requestJson({ url: `${base}/html` })).rejects.toThrow(/not JSON/);
  });

  it('retries network errors and then reports a NetworkError naming the host', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await client
      .requestJson({ url: `http://127.0.0.1:${port}/v2/token`, retry: { attempts: 2 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(
      new RegExp(`Cannot reach http://127.0.0.1:${port}/v2/token`),
    );
    expect(sleeps).toHaveLength(1);
  });

  it('an abort ends a long Retry-After wait at once', async () => {
    const real = new HttpClient();
    script = [json(503, {}, { 'retry-after': '25' }), json(200, {})];
    const ctl = new AbortController();
    const pending = real.requestJson({ url: `${base}/wait`, signal: ctl.signal }).then(
      () => 'resolved',
      (e: unknown) => (e as Error).name,
    );
    await waitFor(() => seen.length === 1, 'the first request');
    ctl.abort();
    expect(await pending).toBe('AbortError');
    expect(seen).toHaveLength(1);
    await real.close();
  });
});
