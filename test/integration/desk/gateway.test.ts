// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * The desk gateway on real processes: the simulator CLI as the service, the relay CLI with
 * the desk's keys (no --issue-service-tokens), traders alice and bob. Reads pass through
 * with the service's status, Retry-After and body; nothing a trader can send yields a
 * service token or the webhook secret; identical reads share one upstream request; a
 * revoked trader is refused within a second.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../relay/helpers.js';
import {
  addDeskUser,
  requestDeskToken,
  stopAll,
  DESK_PRIVATE,
  DESK_PUBLIC,
  relayCommand,
  relayWebhookCommand,
  spawnDeskRelay,
  spawnSimulator,
  type Proc,
} from './processes.js';

let sim: Proc;
let relay: Proc;
let alice = '';
let bob = '';
let webhookSecret = '';
const data = tempDir('mb-gateway-');
const keys = { MACROBELL_PUBLIC_KEY: DESK_PUBLIC, MACROBELL_PRIVATE_KEY: DESK_PRIVATE };

async function get(path: string, bearer: string | null, method = 'GET', headers = {}) {
  const res = await request(`${relay.url}${path}`, {
    method: method as 'GET',
    headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers },
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

async function simState(): Promise<{ apiRequests: number; tokenRequests: number }> {
  const res = await request(`${sim.url}/_sim/state`);
  return (await res.body.json()) as { apiRequests: number; tokenRequests: number };
}

/** The service's own answer, read with the desk's keys (what the relay should pass on). */
async function direct(path: string): Promise<{ status: number; text: string }> {
  const tok = await request(`${sim.url}/auth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'calendar',
      client_id: DESK_PUBLIC,
      client_secret: DESK_PRIVATE,
    }).toString(),
  });
  const { access_token } = (await tok.body.json()) as { access_token: string };
  const res = await request(`${sim.url}/calendar${path}`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  return { status: res.statusCode, text: await res.body.text() };
}

const DAY = 86_400_000;
const iso = (offsetDays: number) =>
  encodeURIComponent(new Date(Date.now() + offsetDays * DAY).toISOString());
const FROM = iso(-30);
const TO = iso(30);
const RANGE = `/en/api/v1/eventDates/${FROM}/${TO}?volatilities=HIGH`;

beforeAll(async () => {
  sim = await spawnSimulator();
  relay = await spawnDeskRelay(sim, data, [], keys);
  const reg = await relayWebhookCommand('register', relay, data, sim, keys);
  expect(reg.code, reg.stdout + reg.stderr).toBe(0);
  const shown = await relayCommand(['secrets', 'show', '--data', data]);
  webhookSecret = /webhook path secret: (\S+)/.exec(shown.stdout)?.[1] as string;
  expect(webhookSecret.length).toBeGreaterThan(20);
  [alice, bob] = await Promise.all([addDeskUser(data, 'alice'), addDeskUser(data, 'bob')]);
}, 90_000);
afterAll(() => stopAll([relay, sim]));

describe('desk gateway', () => {
  it("passes the service's event dates through unchanged for a trader's personal token", async () => {
    const viaRelay = await get(`/service/calendar${RANGE}`, alice);
    expect(viaRelay.status).toBe(200);
    expect((JSON.parse(viaRelay.text) as unknown[]).length).toBeGreaterThan(0);
    expect(viaRelay.headers['content-type']).toMatch(/application\/json/);
    expect(viaRelay.text).toBe((await direct(RANGE)).text);
    const news = await get('/service/news/v4/en-US/post/filter/GeneralFeed?page=1', bob);
    expect(news.status).toBe(200);
    expect((JSON.parse(news.text) as { Values: unknown[] }).Values.length).toBeGreaterThan(0);
    const one = await get('/service/calendar/en/api/v1/eventDates/no-such-date', bob);
    expect(one.status).toBe(404);
    expect(one.text).toBe((await direct('/en/api/v1/eventDates/no-such-date')).text);
  });

  it('answers 401 without a personal token or with a wrong one', async () => {
    expect((await get(`/service/calendar${RANGE}`, null)).status).toBe(401);
    expect((await get(`/service/calendar${RANGE}`, 'mbu_not-a-real-token')).status).toBe(401);
    // Even a path that is not a read: no hint to strangers of what exists.
    expect((await get('/service/calendar/webhooks', null)).status).toBe(401);
  });

  it("never gives bob a service token or the webhook list (which carries the relay's secret)", async () => {
    const tokenAnswer = await requestDeskToken(relay.url, bob);
    expect(tokenAnswer.status).toBe(404);
    const probes: [string, string][] = [
      ['GET', '/service/calendar/webhooks'],
      ['GET', '/service/news/webhooks'],
      ['POST', '/service/calendar/webhooks'],
      ['DELETE', '/service/calendar/webhooks/1'],
      ['GET', '/service/calendar/en/api/v1/events/..%2F..%2F..%2Fwebhooks'],
      ['GET', '/service/calendar/en/api/v1/events/%2e%2e/webhooks'],
      ['GET', '/service/calendar/en/api/v1/../../../webhooks'],
      ['GET', '/service/calendar/en/api/v1/categories?x=/webhooks'],
      ['POST', `/service/calendar${RANGE}`],
      ['GET', '/service/auth/v2/token'],
      ['GET', '/service/calendar/auth/v2/token'],
      ['GET', '/service/news/v4/en-US/webhooks'],
      ['GET', '/service/calendar/en/api/v2/categories'],
      ['GET', '/service'],
    ];
    for (const [method, path] of probes) {
      const res = await get(path, bob, method);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).not.toContain(webhookSecret);
      expect(res.text).not.toMatch(/access_token/);
    }
    // The refusals are in the relay's log, for the desk administrator.
    expect(relay.stdout()).toMatch(/"audit":"gateway_refused","user":"bob"/);
    expect(relay.stdout()).not.toContain(webhookSecret);
  });

  it('passes the service status and Retry-After through unchanged', async () => {
    await request(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api: { status: 429, retryAfterSec: 7, count: 1 } }),
    });
    const res = await get('/service/calendar/en/api/v1/events/no-such-event/historical', alice);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(JSON.parse(res.text)).toMatchObject({ message: 'Injected 429' });
  });

  it('asks the service once for twenty identical reads, and honours If-None-Match', async () => {
    const path = `/service/calendar/en/api/v1/eventDates/${FROM}/${iso(20)}`;
    const before = (await simState()).apiRequests;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(path, i % 2 ? alice : bob)),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect((await simState()).apiRequests - before).toBe(1);
    const etag = answers[0]?.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await get('/service/calendar/en/api/v1/categories', alice);
    const tag = again.headers.etag as string;
    const conditional = await get('/service/calendar/en/api/v1/categories', bob, 'GET', {
      'if-none-match': tag,
    });
    expect(conditional.status).toBe(304);
    expect(conditional.text).toBe('');
  });

  it("refuses bob's reads within a second of `relay users revoke bob`", async () => {
    expect((await get('/service/calendar/en/api/v1/categories', bob)).status).toBe(200);
    const revoked = await relayCommand(['users', 'revoke', 'bob', '--data', data]);
    expect(revoked.code).toBe(0);
    const at = Date.now();
    const res = await get('/service/calendar/en/api/v1/categories', bob);
    expect(res.status).toBe(401);
    expect(Date.now() - at).toBeLessThan(1000);
    expect((await get('/service/calendar/en/api/v1/categories', alice)).status).toBe(200);
  });
});
