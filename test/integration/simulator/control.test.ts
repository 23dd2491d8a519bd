import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { isLoopback } from '../../../src/simulator/server.js';
import { call, control, receiver, start, T0, token, waitFor } from './helpers.js';

interface Ed {
  id: string;
  eventId: string;
  dateUtc: string;
  actual: number | null;
  consensus: number | null;
  isSpeech: boolean;
  volatility: string;
}

let sim: RunningSimulator;
let cal: string;
beforeAll(async () => {
  sim = await start();
  cal = await token(sim, 'calendar');
});
afterAll(() => sim.close());
const anyDate = () =>
  `${sim.calendarUrl}/en/api/v1/eventDates/2026-03-09T00:00:00Z/2026-03-11T00:00:00Z`;

describe('control API', () => {
  it('reports state and moves the scenario clock', async () => {
    const st = await control<{ now: string; events: number; eventDates: number; posts: number }>(
      sim,
      'GET',
      '/state',
    );
    expect(st.status).toBe(200);
    expect(st.body.eventDates).toBeGreaterThan(200);
    expect(st.body.posts).toBeGreaterThanOrEqual(120);
    const before = Date.parse(st.body.now);
    expect(before).toBeGreaterThanOrEqual(T0);
    const frozen = await control<{ now: string; speed: number }>(sim, 'POST', '/clock', {
      speed: 0,
    });
    expect(frozen.body.speed).toBe(0);
    const t1 = Date.parse(frozen.body.now);
    const moved = await control<{ now: string }>(sim, 'POST', '/clock', { advanceMs: 3_600_000 });
    expect(Date.parse(moved.body.now)).toBe(t1 + 3_600_000);
    // frozen: every read while real time passes (at least 50 ms of it) says the same time
    const wall = Date.now();
    const reads: number[] = [];
    while (reads.length < 2 || Date.now() - wall < 50) {
      const still = await control<{ now: string }>(sim, 'GET', '/state');
      reads.push(Date.parse(still.body.now));
    }
    expect(new Set(reads)).toEqual(new Set([t1 + 3_600_000]));
  });

  it('creates an event and an occurrence that the calendar API then serves', async () => {
    const ev = await control<{ id: string; name: string }>(sim, 'POST', '/events', {
      name: 'Sim Test PMI',
      countryCode: 'NZ',
      currencyCode: 'NZD',
      volatility: 'HIGH',
    });
    expect(ev.status).toBe(201);
    const served = await call<{ name: string; countryCode: string }>(
      `${sim.calendarUrl}/en/api/v1/events/${ev.body.id}`,
      { token: cal },
    );
    expect(served.body).toMatchObject({ name: 'Sim Test PMI', countryCode: 'NZ' });
    const ed = await control<Ed>(sim, 'POST', '/event-dates', {
      eventId: ev.body.id,
      dateUtc: '2026-03-10T21:45:00Z',
      consensus: 50,
    });
    expect(ed.status).toBe(201);
    const list = await call<Ed[]>(anyDate() + '?countries=NZ&volatilities=HIGH', { token: cal });
    expect(list.body.map((d) => d.id)).toContain(ed.body.id);
    const patched = await control<Ed & { isBetterThanExpected: boolean }>(
      sim,
      'PATCH',
      `/event-dates/${ed.body.id}`,
      { actual: 48 },
    );
    expect(patched.body).toMatchObject({ actual: 48, isBetterThanExpected: false });
  });

  it('validates bodies: 400 JSON errors, 404 unknown ids, 405 wrong methods', async () => {
    const cases: [string, string, unknown, number][] = [
      ['POST', '/events', { name: '' }, 400],
      ['POST', '/event-dates', { eventId: 'nope' }, 404],
      ['POST', '/event-dates', { dateUtc: '2026-01-01' }, 400],
      ['PATCH', '/event-dates/nope', { actual: 1 }, 404],
      ['POST', '/posts', { title: 'x', culture: 'english' }, 400],
      ['PATCH', '/posts/nope', { title: 'x' }, 404],
      ['DELETE', '/posts/nope?culture=en-US', undefined, 404],
      ['POST', '/clock', { advanceMs: -5 }, 400],
      ['POST', '/faults', { api: { status: 418 } }, 400],
      ['GET', '/events', undefined, 405],
      ['DELETE', '/clock', undefined, 405],
      ['GET', '/nothing', undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await control<{ error: string; message: string }>(sim, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(typeof res.body.error, `${method} ${path}`).toBe('string');
      expect(typeof res.body.message, `${method} ${path}`).toBe('string');
    }
    const someId = (await control<Ed[]>(sim, 'GET', '/event-dates')).body[0]!.id;
    for (const body of [
      { actual: 'high' },
      { nonsense: 1 },
      { dateUtc: 'soon' },
      { volatility: 'EXTREME' },
    ]) {
      const res = await control(sim, 'PATCH', `/event-dates/${someId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('the control API is loopback-only', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('192.168.1.20')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });

  it('answers /_sim/state only to Host names of this machine (no DNS rebinding)', async () => {
    const stateWithHost = (host: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(`${sim.url}/_sim/state`, { headers: { host } }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end();
      });
    const port = new URL(sim.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
      expect((await stateWithHost(host)).status).toBe(200);
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`]) {
      const refused = await stateWithHost(host);
      expect(refused.status).toBe(403);
      expect(refused.text).toMatch(/Host localhost or an IP address/);
      expect(refused.text).not.toMatch(/secret/i);
    }
    const lan = await stateWithHost(`10.0.0.5:${port}`);
    expect(lan.status).toBe(403);
    expect(lan.text).toMatch(/Host 127\.0\.0\.1, localhost or \[::1\]/);
  });
});

describe('faults', () => {
  it('injects 429 with Retry-After for N requests, then recovers', async () => {
    await control(sim, 'POST', '/faults', { api: { status: 429, retryAfterSec: 7, count: 2 } });
    for (let i = 0; i < 2; i++) {
      const res = await call<{ error: string }>(anyDate(), { token: cal });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.body.error).toBeTruthy();
    }
    expect((await call(anyDate(), { token: cal })).status).toBe(200);
  });

  it.each([500, 502, 503])('injects %i until cleared', async (status) => {
    await control(sim, 'POST', '/faults', { api: { status } });
    expect((await call(anyDate(), { token: cal })).status).toBe(status);
    expect(
      (
        await call(`${sim.newsUrl}/v4/en-US/post/filter/GeneralFeed`, {
          token: await token(sim, 'news'),
        })
      ).status,
    ).toBe(status);
    expect((await control(sim, 'DELETE', '/faults')).status).toBe(200);
    expect((await call(anyDate(), { token: cal })).status).toBe(200);
  });

  it('adds latency to API answers', async () => {
    await control(sim, 'POST', '/faults', { latencyMs: 400 });
    const t = Date.now();
    expect((await call(anyDate(), { token: cal })).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(390);
    await control(sim, 'DELETE', '/faults');
  });
});

describe('bad input', () => {
  it('answers malformed and mistyped bodies with JSON errors', async () => {
    const malformed = await call<{ error: string }>(`${sim.url}/_sim/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_json');
    const text = await call(`${sim.url}/_sim/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    const hookText = await call(`${sim.calendarUrl}/webhooks`, {
      method: 'POST',
      token: cal,
      headers: { 'content-type': 'text/plain' },
      body: 'https://x.example/',
    });
    expect(hookText.status).toBe(415);
    const form = await call<{ error: string }>(`${sim.authUrl}/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '%%%&&&==',
    });
    expect(form.status).toBe(400);
    expect(form.body.error).toBe('invalid_request');
  });

  it('answers unknown routes with 404 and wrong methods with 405', async () => {
    expect((await call(`${sim.url}/`)).status).toBe(404);
    expect((await call(`${sim.url}/prices/v1`)).status).toBe(404);
    const post = await call(anyDate(), { method: 'POST', token: cal, json: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBeTruthy();
    expect(
      (await call(`${sim.calendarUrl}/webhooks`, { method: 'PUT', token: cal, json: {} })).status,
    ).toBe(405);
  });

  it('stops reading bodies over 1 MiB with 413 and stays up', async () => {
    const port = Number(new URL(sim.url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer to the oversized body')));
      socket.on('data', (c) => (data += c.toString('latin1')));
      socket.on('close', () => resolve(data));
      socket.on('error', (e) => (data ? resolve(data) : reject(e)));
      socket.write(
        `POST /_sim/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(64 * 1024, 0x20));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    // chunked (no declared length) and declared length: the limit holds either way
    const big = '"' + 'x'.repeat(1024 * 1024 + 10) + '"';
    const chunked = await fetch(`${sim.url}/_sim/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const declared = await call<{ error: string }>(`${sim.url}/_sim/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toBe('payload_too_large');
    expect((await control(sim, 'GET', '/state')).status).toBe(200);
  });
});

describe('scenario clock with autoplay', () => {
  it('releases each due value once, with a webhook carrying actual', async () => {
    const auto = await start({ autoplay: true, speed: 0 });
    const r = await receiver();
    try {
      const t = await token(auto, 'calendar');
      await call(`${auto.calendarUrl}/webhooks`, {
        method: 'POST',
        token: t,
        json: { url: r.url },
      });
      const list = (await control<Ed[]>(auto, 'GET', '/event-dates')).body;
      const next = list.find(
        (d) => Date.parse(d.dateUtc) > T0 && d.consensus !== null && !d.isSpeech,
      )!;
      await control(auto, 'POST', '/clock', { advanceMs: Date.parse(next.dateUtc) - T0 + 1000 });
      const released = await waitFor(
        () => r.received.find((x) => (x.body as { eventDateId?: string }).eventDateId === next.id),
        'the release webhook',
      );
      const changes = (released.body as { changes: { key: string; value: unknown }[] }).changes;
      const actual = changes.find((c) => c.key === 'actual');
      expect(typeof actual?.value).toBe('number');
      const served = await call<Ed>(`${auto.calendarUrl}/en/api/v1/eventDates/${next.id}`, {
        token: t,
      });
      expect(served.body.actual).toBe(actual!.value);
      // later ticks never release it again
      await control(auto, 'POST', '/clock', { advanceMs: 60_000 });
      await control(auto, 'POST', '/clock', { advanceMs: 60_000 });
      await auto.deliveriesIdle();
      const forIt = r.received.filter(
        (x) =>
          (x.body as { eventDateId?: string }).eventDateId === next.id &&
          (x.body as { changes?: { key: string }[] }).changes?.some((c) => c.key === 'actual'),
      );
      expect(forIt).toHaveLength(1);
    } finally {
      await auto.close();
      await r.close();
    }
  });
});

describe('the scenario clock of a simulator started on the real clock', () => {
  it('reads the wall clock: it starts before the calendar is generated, not after', async () => {
    const real = await startSimulator({ seed: 3, autoplay: false, log: () => undefined });
    try {
      const before = Date.now();
      const st = await control<{ now: string }>(real, 'GET', '/state');
      const after = Date.now();
      // generating the week takes a fraction of a second: a clock started after it ran
      // that much behind (a print stamped before its own release time)
      expect(Date.parse(st.body.now)).toBeGreaterThanOrEqual(before - 20);
      expect(Date.parse(st.body.now)).toBeLessThanOrEqual(after + 20);
    } finally {
      await real.close();
    }
  });
});
