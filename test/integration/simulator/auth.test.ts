import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { call, control, start, token } from './helpers.js';

let sim: RunningSimulator;
/** The clock token lifetimes run on: moved by the tests, never slept on. */
let wall = Date.now();
beforeAll(async () => {
  sim = await start({ tokenClock: () => wall });
});
afterAll(() => sim.close());

function form(params: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  return call<Record<string, unknown>>(`${sim.authUrl}/v2/token`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new URLSearchParams(params).toString(),
  });
}
const good = () => ({
  grant_type: 'client_credentials',
  client_id: sim.clientId,
  client_secret: sim.clientSecret,
  scope: 'calendar',
});
const firstDate = () =>
  `${sim.calendarUrl}/en/api/v1/eventDates/2026-03-01T00:00:00Z/2026-03-02T00:00:00Z`;

describe('token endpoint', () => {
  it('issues a bearer token with no-store caching and returns the same token with a shrinking lifetime', async () => {
    const a = await form(good());
    expect(a.status).toBe(200);
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(a.body).toMatchObject({ token_type: 'Bearer', expires_in: 86399 });
    expect(typeof a.body.access_token).toBe('string');
    wall += 1100;
    const b = await form(good());
    expect(b.body.access_token).toBe(a.body.access_token);
    expect(b.body.expires_in as number).toBeLessThan(86399);
  });

  it('gives each scope its own token', async () => {
    const cal = await form(good());
    const news = await form({ ...good(), scope: 'news' });
    expect(news.status).toBe(200);
    expect(news.body.access_token).not.toBe(cal.body.access_token);
  });

  it.each([
    [
      'a JSON body',
      () => call(`${sim.authUrl}/v2/token`, { method: 'POST', json: good() }),
      400,
      'invalid_request',
    ],
    ['a missing scope', () => form({ ...good(), scope: '' }), 400, 'invalid_request'],
    [
      'a missing client_secret',
      () => {
        const p: Record<string, string> = good();
        delete p.client_secret;
        return form(p);
      },
      400,
      'invalid_request',
    ],
    [
      'another grant type',
      () => form({ ...good(), grant_type: 'password' }),
      400,
      'unsupported_grant_type',
    ],
    ['a wrong secret', () => form({ ...good(), client_secret: 'nope' }), 401, 'invalid_client'],
    ['a wrong client id', () => form({ ...good(), client_id: 'nope' }), 401, 'invalid_client'],
    ['an unknown scope', () => form({ ...good(), scope: 'prices' }), 400, 'invalid_scope'],
  ])('answers %s with an RFC 6749 error', async (_name, send, status, error) => {
    const res = (await send()) as Awaited<ReturnType<typeof form>>;
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error });
    expect(typeof res.body.error_description).toBe('string');
    // the secret never comes back in an error
    expect(JSON.stringify(res.body)).not.toContain(sim.clientSecret);
  });

  it('answers GET with 405', async () => {
    const res = await call(`${sim.authUrl}/v2/token`);
    expect(res.status).toBe(405);
  });
});

describe('bearer checks on the data APIs', () => {
  it('answers a missing or unknown token with 401 and WWW-Authenticate', async () => {
    const none = await call(firstDate());
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const bad = await call(firstDate(), { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(bad.body).toMatchObject({ error: 'invalid_token' });
  });

  it('answers a token of the other scope with 403 insufficient_scope', async () => {
    const news = await token(sim, 'news');
    const res = await call(firstDate(), { token: news });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'insufficient_scope' });
    const cal = await token(sim, 'calendar');
    const res2 = await call(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed?page=1`, {
      token: cal,
    });
    expect(res2.status).toBe(403);
  });

  it('expireTokens invalidates every issued token; a new one works', async () => {
    const old = await token(sim, 'calendar');
    expect((await call(firstDate(), { token: old })).status).toBe(200);
    expect((await control(sim, 'POST', '/faults', { expireTokens: true })).status).toBe(200);
    const res = await call(firstDate(), { token: old });
    expect(res.status).toBe(401);
    const fresh = await token(sim, 'calendar');
    expect(fresh).not.toBe(old);
    expect((await call(firstDate(), { token: fresh })).status).toBe(200);
  });

  it('tokenLifetimeSec makes new tokens expire early, and an expired token gets 401', async () => {
    await control(sim, 'POST', '/faults', { expireTokens: true, tokenLifetimeSec: 1 });
    const res = await form(good());
    expect(res.body.expires_in as number).toBeLessThanOrEqual(1);
    const short = res.body.access_token as string;
    expect((await call(firstDate(), { token: short })).status).toBe(200);
    wall += 1200;
    const expired = await call(firstDate(), { token: short });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'invalid_token' });
    // after expiry a new token is issued, not the stale one
    const next = await form(good());
    expect(next.body.access_token).not.toBe(short);
    await control(sim, 'DELETE', '/faults');
  });

  it('injected token errors answer the next N requests, then stop', async () => {
    await control(sim, 'POST', '/faults', {
      token: { status: 503, error: 'temporarily_unavailable', count: 2 },
    });
    expect((await form(good())).status).toBe(503);
    const second = await form(good());
    expect(second.status).toBe(503);
    expect(second.body).toMatchObject({ error: 'temporarily_unavailable' });
    expect((await form(good())).status).toBe(200);
  });
});
