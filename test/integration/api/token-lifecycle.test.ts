/** Token lifecycle against the simulator: real expiry, key changes mid-exchange, states. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { AuthError, TokenManager, type Credentials } from '../../../src/main/auth/index.js';
import { ApiInputError, createApiClients } from '../../../src/main/api/index.js';
import { HttpClient } from '../../../src/node/http/client.js';
import type { TokenState } from '../../../src/shared/domain.js';
import { waitFor } from '../../support/wait.js';

const GOOD: Credentials = { publicKey: 'demo-public', privateKey: 'demo-private' };
let sim: RunningSimulator;
const http = new HttpClient({ sleep: async () => undefined });
const faults = (body: unknown) =>
  fetch(`${sim.url}/_sim/faults`, {
    method: body ? 'POST' : 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5, autoplay: false, log: () => undefined });
});
afterAll(async () => {
  await http.close();
  await sim.close();
});
beforeEach(() => faults(null));

describe('token lifecycle', () => {
  it('takes a new token once the short-lived one expires, and keeps calls working', async () => {
    await faults({ tokenLifetimeSec: 2 });
    const tokens = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => GOOD,
      http,
    });
    const { calendar } = createApiClients({
      urls: () => ({ auth: sim.authUrl, calendar: sim.calendarUrl, news: sim.newsUrl }),
      language: () => 'en',
      tokens,
      http,
    });
    const first = await tokens.getAuthorization('calendar');
    const issuedAt = Date.now();
    expect(await tokens.getAuthorization('calendar')).toBe(first);
    await waitFor(() => Date.now() > issuedAt + 2_200, 'the 2 s token to expire');
    const before = sim.state.tokenRequests;
    expect((await calendar.categories()).length).toBeGreaterThan(0);
    expect(await tokens.getAuthorization('calendar')).not.toBe(first);
    expect(sim.state.tokenRequests - before).toBe(1);
  });

  it('after clear(), a caller already waiting gets a token for the new keys, not the old answer', async () => {
    let keys: Credentials = { publicKey: 'old-public-key', privateKey: 'old-private-key' };
    let releaseOld: (() => void) | null = null;
    const tokens = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => {
        const now = keys;
        // Hold the first (old-key) lookup until the keys have changed.
        if (now.publicKey.startsWith('old')) await new Promise<void>((r) => (releaseOld = r));
        return now;
      },
      http,
    });
    const states: string[] = [];
    tokens.onStateChange((scope, state: TokenState) => states.push(`${scope}:${state}`));
    const waiting = tokens.getAuthorization('news');
    await waitFor(() => releaseOld !== null, 'the exchange to start');
    expect(tokens.state('news')).toBe('refreshing');
    keys = GOOD;
    tokens.clear();
    expect(tokens.state('news')).toBe('none');
    (releaseOld as unknown as () => void)();
    await expect(waiting).resolves.toMatch(/^Bearer \S+$/);
    expect(tokens.state('news')).toBe('valid');
    expect(states).toEqual(['news:refreshing', 'news:none', 'news:refreshing', 'news:valid']);
  });

  it('reports each scope separately and tests a connection with a fresh exchange', async () => {
    const tokens = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => GOOD,
      http,
    });
    await tokens.getAuthorization('calendar');
    expect(tokens.state('calendar')).toBe('valid');
    expect(tokens.state('news')).toBe('none');
    const before = sim.state.tokenRequests;
    expect(await tokens.test('calendar')).toEqual({
      ok: true,
      message: expect.stringMatching(/calendar API accepted/),
    });
    expect(sim.state.tokenRequests - before).toBe(1);
    await faults({ token: { status: 400, error: 'invalid_scope', count: 1 } });
    expect(await tokens.test('news')).toEqual({
      ok: false,
      message: 'Your subscription does not include the news API (invalid_scope).',
    });
    expect(tokens.state('news')).toBe('error');
  });

  it('explains an unreachable token service, a server failure and a bad scope', async () => {
    const down = new TokenManager({
      authUrl: () => 'http://127.0.0.1:9',
      credentials: async () => GOOD,
      http,
    });
    await expect(down.getAuthorization('calendar')).rejects.toMatchObject({
      code: 'network',
      message: expect.stringMatching(/Cannot reach the token service/),
    });
    await faults({ token: { status: 503, error: 'temporarily_unavailable', count: 10 } });
    const tokens = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => GOOD,
      http,
    });
    const err = await tokens.getAuthorization('calendar').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).status).toBe(503);
    await faults(null);
    expect(() => tokens.state('weather' as never)).toThrow(/Unknown API scope "weather"/);
  });
});

describe('client arguments', () => {
  it('rejects bad arguments with a clear error before any request', async () => {
    const tokens = new TokenManager({
      authUrl: () => sim.authUrl,
      credentials: async () => GOOD,
      http,
    });
    const { calendar, news } = createApiClients({
      urls: () => ({ auth: sim.authUrl, calendar: sim.calendarUrl, news: sim.newsUrl }),
      language: () => 'en',
      tokens,
      http,
    });
    const before = sim.state.apiRequests;
    await expect(calendar.eventDates({ from: 'yesterday', to: 'today' })).rejects.toThrow(
      /Invalid arguments for eventDates: [\s\S]*→ at from/,
    );
    await expect(
      calendar.eventDates({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }),
    ).rejects.toThrow(/from must not be after to/);
    await expect(calendar.event('')).rejects.toBeInstanceOf(ApiInputError);
    await expect(news.feed('en-US', 0)).rejects.toThrow(/GeneralFeed/);
    await expect(news.post('p1', '../etc')).rejects.toThrow(/culture such as en-US/);
    await expect(calendar.webhooks.register('ftp://files.example/x')).rejects.toBeInstanceOf(
      ApiInputError,
    );
    expect(sim.state.apiRequests).toBe(before);
  });
});
