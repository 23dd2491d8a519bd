/** Token manager and API clients against the simulator over real HTTP. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { AuthError, TokenManager } from '../../../src/main/auth/index.js';
import {
  createApiClients,
  NotFoundError,
  ResponseShapeError,
  WebhookLimitError,
} from '../../../src/main/api/index.js';
import { HttpClient } from '../../../src/node/http/client.js';

let sim: RunningSimulator;
const sleeps: number[] = [];
const http = new HttpClient({ sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 });
const faults = (body: unknown) =>
  fetch(`${sim.url}/_sim/faults`, {
    method: body ? 'POST' : 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });

function clients(keys = { publicKey: 'demo-public', privateKey: 'demo-private' }) {
  const tokens = new TokenManager({
    authUrl: () => sim.authUrl,
    credentials: async () => keys,
    http,
  });
  const api = createApiClients({
    urls: () => ({ auth: sim.authUrl, calendar: sim.calendarUrl, news: sim.newsUrl }),
    language: () => 'en',
    tokens,
    http,
  });
  return { tokens, ...api };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 21, autoplay: false, log: () => undefined });
});
afterAll(() => sim.close());
beforeEach(async () => {
  sleeps.length = 0;
  await faults(null);
});

describe('tokens', () => {
  it('shares one exchange among 100 concurrent callers', async () => {
    const { tokens } = clients();
    const before = sim.state.tokenRequests;
    const all = await Promise.all(
      Array.from({ length: 100 }, () => tokens.getAuthorization('calendar')),
    );
    expect(new Set(all).size).toBe(1);
    expect(all[0]).toMatch(/^Bearer \S+$/);
    expect(sim.state.tokenRequests - before).toBe(1);
    expect(tokens.state('calendar')).toBe('valid');
  });

  it('refreshes after a 401 once and retries once (tokens expired early)', async () => {
    const { calendar, tokens } = clients();
    await calendar.categories();
    await faults({ expireTokens: true });
    const before = sim.state.tokenRequests;
    expect((await calendar.categories()).length).toBe(12);
    expect(sim.state.tokenRequests - before).toBe(1);
    expect(tokens.state('calendar')).toBe('valid');
  });

  it('refreshes ahead of expiry, in the background, and after expiry', async () => {
    await faults({ tokenLifetimeSec: 100 });
    let now = Date.now();
    const tokens = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => ({ publicKey: 'demo-public', privateKey: 'demo-private' }),
      http,
      now: () => now,
    });
    const a = await tokens.getAuthorization('news');
    let before = sim.state.tokenRequests;
    now += 50_000; // well inside the lifetime: cached
    expect(await tokens.getAuthorization('news')).toBe(a);
    expect(sim.state.tokenRequests).toBe(before);
    now += 45_000; // 95 s of 100: still answered at once, refreshed behind the caller
    expect(await tokens.getAuthorization('news')).toBe(a);
    // the background refresh lands: one exchange, signalled by the simulator's count
    await vi.waitFor(() => expect(sim.state.tokenRequests - before).toBe(1));
    before = sim.state.tokenRequests;
    now += 200_000; // long expired: the caller waits for a new exchange
    await tokens.getAuthorization('news');
    expect(sim.state.tokenRequests - before).toBe(1);
  });

  it('explains rejected keys without ever showing them', async () => {
    const { tokens, news } = clients({ publicKey: 'pk-WRONG-1234', privateKey: 'sk-WRONG-5678' });
    const err = await tokens.getAuthorization('calendar').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).code).toBe('invalid_client');
    expect((err as Error).message).toMatch(/rejected by the service/);
    expect((err as Error).message).not.toMatch(/WRONG/);
    await expect(news.feed('en-US', 1)).rejects.toThrow(/rejected by the service/);
    const test = await tokens.test('news');
    expect(test.ok).toBe(false);
    expect(test.message).not.toMatch(/WRONG/);
  });

  it('turns token-endpoint errors into typed errors, and drops tokens when keys change', async () => {
    await faults({ token: { status: 400, error: 'invalid_scope', count: 1 } });
    const { tokens } = clients();
    await expect(tokens.getAuthorization('news')).rejects.toMatchObject({
      code: 'invalid_scope',
      message: expect.stringMatching(/subscription does not include the news API/),
    });
    await tokens.getAuthorization('news');
    tokens.clear();
    expect(tokens.state('news')).toBe('none');
    const none = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => null,
      http,
    });
    await expect(none.getAuthorization('calendar')).rejects.toMatchObject({
      code: 'no_credentials',
    });
  });

  it('gets 403 with a token of the other scope', async () => {
    const { tokens } = clients();
    const auth = await tokens.getAuthorization('news');
    const res = await fetch(`${sim.calendarUrl}/en/api/v1/categories`, {
      headers: { authorization: auth },
    });
    expect(res.status).toBe(403);
  });
});

describe('retries', () => {
  it('retries 503 and 429, honouring Retry-After, and never retries other 4xx', async () => {
    const { calendar } = clients();
    await calendar.categories();
    await faults({ api: { status: 429, retryAfterSec: 7, count: 1 } });
    expect(await calendar.categories()).toHaveLength(12);
    expect(sleeps).toEqual([7000]);
    sleeps.length = 0;
    await faults({ api: { status: 503, count: 2 } });
    expect(await calendar.categories()).toHaveLength(12);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0] as number);
    sleeps.length = 0;
    await expect(calendar.eventDate('no-such-id')).rejects.toBeInstanceOf(NotFoundError);
    expect(sleeps).toEqual([]);
    await faults({ api: { status: 500, count: 10 } });
    await expect(calendar.categories()).rejects.toThrow(/HTTP 500/);
    expect(sleeps).toHaveLength(3);
  });
});

describe('calendar and news', () => {
  it('serves every endpoint, validated, with the raw JSON kept', async () => {
    const { calendar, news } = clients();
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 14 * 86_400_000).toISOString();
    const all = await calendar.eventDates({ from, to });
    expect(all.length).toBeGreaterThan(50);
    const high = await calendar.eventDates({ from, to, volatilities: ['HIGH'], countries: ['US'] });
    expect(high.every((d) => d.value.volatility === 'HIGH' && d.value.countryCode === 'US')).toBe(
      true,
    );
    const one = all[0]!;
    expect((await calendar.eventDate(one.value.id)).value.id).toBe(one.value.id);
    expect(one.raw).toMatchObject({ id: one.value.id });
    const event = await calendar.event(one.value.eventId);
    expect(event.value.id).toBe(one.value.eventId);
    const printed = all.find((d) => d.value.actual !== null)!;
    expect((await calendar.historical(printed.value.eventId)).length).toBeGreaterThan(3);
    expect((await calendar.assets()).some((a) => a.name === 'EUR/USD')).toBe(true);
    const feed = await news.feed('en-US', 1);
    expect(feed.items.length).toBeGreaterThan(5);
    const post = await news.post(feed.items[0]!.value.id, 'en-US');
    expect(post.value.title).toBe(feed.items[0]!.value.title);
  });

  it('manages webhooks and explains the two-URL limit with the registered URLs', async () => {
    const { calendar } = clients();
    const a = await calendar.webhooks.register('https://a.example/hook');
    expect(a.created).toBe(true);
    expect((await calendar.webhooks.register('https://a.example/hook')).created).toBe(false);
    await calendar.webhooks.register('https://b.example/hook');
    const err = await calendar.webhooks.register('https://c.example/hook').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookLimitError);
    expect((err as Error).message).toMatch(/two webhook URLs.*a\.example.*b\.example/);
    expect((err as WebhookLimitError).registered).toHaveLength(2);
    await calendar.webhooks.remove(a.webhook.id);
    expect((await calendar.webhooks.list()).map((w) => w.url)).toEqual(['https://b.example/hook']);
  });

  it('reports a malformed response as a shape error naming the endpoint', async () => {
    const bad = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.url?.includes('/token')
          ? JSON.stringify({ access_token: 't', token_type: 'Bearer', expires_in: 100 })
          : JSON.stringify({ nope: true }),
      );
    });
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
    const tokens = new TokenManager({
      authUrl: () => base,
      credentials: async () => ({ publicKey: 'a', privateKey: 'b' }),
      http,
    });
    const { calendar } = createApiClients({
      urls: () => ({ auth: base, calendar: base, news: base }),
      language: () => 'en',
      tokens,
      http,
    });
    await expect(calendar.eventDate('x')).rejects.toBeInstanceOf(ResponseShapeError);
    await expect(calendar.eventDate('x')).rejects.toThrow(/eventDates\/\{id\}/);
    bad.close();
  });

  it('on a 401 refreshes the token once and retries once, then reports the 401', async () => {
    let tokenCalls = 0;
    const seen: string[] = [];
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v2/token') {
        tokenCalls++;
        res.end(
          JSON.stringify({ access_token: `t${tokenCalls}`, token_type: 'Bearer', expires_in: 600 }),
        );
        return;
      }
      seen.push(String(req.headers.authorization));
      res.statusCode = 401;
      res.end(JSON.stringify({ error: 'invalid_token' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tokens = new TokenManager({
      authUrl: () => base,
      credentials: async () => ({ publicKey: 'a', privateKey: 'b' }),
      http,
    });
    const { news } = createApiClients({
      urls: () => ({ auth: base, calendar: base, news: base }),
      language: () => 'en',
      tokens,
      http,
    });
    await expect(news.feed('en-US', 1)).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual(['Bearer t1', 'Bearer t2']);
    expect(tokenCalls).toBe(2);
    // the webhook calls (settings, `relay register`) go through the same retry
    await expect(news.webhooks.list()).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual(['Bearer t1', 'Bearer t2', 'Bearer t2', 'Bearer t3']);
    expect(tokenCalls).toBe(3);
    expect(sleeps).toEqual([]);
    await new Promise((r) => server.close(r));
  });
});
