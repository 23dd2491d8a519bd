import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { call, control, receiver, start, T0, token, waitFor } from './helpers.js';

interface Hook {
  id: string;
  url: string;
  createdAt: string;
  lastSentAt: string | null;
}
interface Delivery {
  id: number;
  webhookId: string;
  url: string;
  type: string;
  payload: Record<string, unknown>;
  attempt: number;
  status: number | null;
  ok: boolean;
  at: string;
  error?: string;
}

let sim: RunningSimulator;
let cal: string;
let news: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // fast retries so failures are retried within the test
  sim = await start({ retrySchedule: [50, 100], deliveryTimeoutMs: 500 });
  cal = await token(sim, 'calendar');
  news = await token(sim, 'news');
});
afterAll(() => sim.close());
afterEach(async () => {
  // drop every registration so each test starts with none
  for (const api of ['calendar', 'news'] as const) {
    const t = api === 'calendar' ? cal : news;
    const base = api === 'calendar' ? sim.calendarUrl : sim.newsUrl;
    const list = (await call<Hook[]>(`${base}/webhooks`, { token: t })).body;
    for (const h of list) await call(`${base}/webhooks/${h.id}`, { method: 'DELETE', token: t });
  }
  await sim.deliveriesIdle();
  await control(sim, 'DELETE', '/faults');
  while (cleanups.length) await cleanups.pop()!();
});

async function hook(status: () => number = () => 204, api: 'calendar' | 'news' = 'calendar') {
  const r = await receiver(status);
  cleanups.push(r.close);
  const base = api === 'calendar' ? sim.calendarUrl : sim.newsUrl;
  const res = await call<Hook>(`${base}/webhooks`, {
    method: 'POST',
    token: api === 'calendar' ? cal : news,
    json: { url: r.url },
  });
  expect(res.status).toBe(201);
  return { ...r, hook: res.body };
}

async function deliveries(): Promise<Delivery[]> {
  return (await control<Delivery[]>(sim, 'GET', '/deliveries')).body;
}
async function someEventDate(): Promise<{ id: string; eventId: string; consensus: number | null }> {
  const list = (
    await control<
      {
        id: string;
        eventId: string;
        consensus: number | null;
        actual: number | null;
        dateUtc: string;
      }[]
    >(sim, 'GET', '/event-dates')
  ).body;
  return list.find((d) => d.actual === null && d.consensus !== null && Date.parse(d.dateUtc) > T0)!;
}

describe('webhook management', () => {
  it('registers (201), returns an existing URL (200), refuses a third URL with 444, lists and deletes', async () => {
    const base = `${sim.calendarUrl}/webhooks`;
    const a = await call<Hook>(base, {
      method: 'POST',
      token: cal,
      json: { url: 'https://relay.example/a' },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ url: 'https://relay.example/a', lastSentAt: null });
    expect(Date.parse(a.body.createdAt)).not.toBeNaN();
    const again = await call<Hook>(base, {
      method: 'POST',
      token: cal,
      json: { url: 'https://relay.example/a' },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(a.body.id);
    expect(
      (await call(base, { method: 'POST', token: cal, json: { url: 'https://relay.example/b' } }))
        .status,
    ).toBe(201);
    const third = await call<{ error: string }>(base, {
      method: 'POST',
      token: cal,
      json: { url: 'https://relay.example/c' },
    });
    expect(third.status).toBe(444);
    expect(third.body.error).toBeTruthy();
    const list = await call<Hook[]>(base, { token: cal });
    expect(list.body.map((h) => h.url)).toEqual([
      'https://relay.example/a',
      'https://relay.example/b',
    ]);
    // news has its own two slots
    expect(
      (
        await call(`${sim.newsUrl}/webhooks`, {
          method: 'POST',
          token: news,
          json: { url: 'https://relay.example/c' },
        })
      ).status,
    ).toBe(201);
    expect((await call(`${base}/${a.body.id}`, { method: 'DELETE', token: cal })).status).toBe(204);
    expect((await call(`${base}/${a.body.id}`, { method: 'DELETE', token: cal })).status).toBe(404);
    expect(
      (await call(base, { method: 'POST', token: cal, json: { url: 'https://relay.example/c' } }))
        .status,
    ).toBe(201);
  });

  it('rejects invalid URLs and bodies with 400, and needs a token of the right scope', async () => {
    const base = `${sim.calendarUrl}/webhooks`;
    for (const json of [{ url: 'not a url' }, { url: 'ftp://x.example/' }, {}, { url: 3 }]) {
      expect((await call(base, { method: 'POST', token: cal, json })).status).toBe(400);
    }
    expect((await call(base, { method: 'POST', json: { url: 'https://x.example/' } })).status).toBe(
      401,
    );
    expect(
      (await call(base, { method: 'POST', token: news, json: { url: 'https://x.example/' } }))
        .status,
    ).toBe(403);
    expect((await call(base, { token: news })).status).toBe(403);
  });
});

describe('deliveries', () => {
  it('delivers every calendar notification type with the right payload and sets lastSentAt on 204', async () => {
    const r = await hook();
    const ev = await control<{ id: string }>(sim, 'POST', '/events', {
      name: 'Test Index',
      countryCode: 'US',
      currencyCode: 'USD',
    });
    expect(ev.status).toBe(201);
    const ed = await control<{ id: string; lastUpdated: number }>(sim, 'POST', '/event-dates', {
      eventId: ev.body.id,
      dateUtc: '2026-03-12T13:30:00Z',
      consensus: 1.5,
    });
    expect(ed.status).toBe(201);
    const upd = await control<{
      lastUpdated: number;
      actual: number;
      isBetterThanExpected: boolean;
      ratioDeviation: number;
    }>(sim, 'PATCH', `/event-dates/${ed.body.id}`, {
      actual: 2.0,
      dateUtc: '2026-03-12T13:35:00Z',
    });
    expect(upd.status).toBe(200);
    expect(upd.body.isBetterThanExpected).toBe(true);
    expect(upd.body.ratioDeviation).toBeGreaterThan(0);
    expect(upd.body.lastUpdated).toBeGreaterThanOrEqual(ed.body.lastUpdated);
    expect((await control(sim, 'DELETE', `/event-dates/${ed.body.id}`)).status).toBe(200);

    await waitFor(() => r.received.length >= 4, '4 calendar deliveries');
    const byType = new Map(r.received.map((x) => [(x.body as { type: string }).type, x.body]));
    expect(r.received.every((x) => x.contentType?.startsWith('application/json'))).toBe(true);
    expect(byType.get('event_created')).toEqual({ type: 'event_created', eventId: ev.body.id });
    expect(byType.get('eventDate_created')).toEqual({
      type: 'eventDate_created',
      eventDateId: ed.body.id,
      eventId: ev.body.id,
      lastUpdated: ed.body.lastUpdated,
    });
    const updated = byType.get('eventDate_updated') as {
      changes: { key: string; value: unknown }[];
      lastUpdated: number;
    };
    expect(updated).toMatchObject({
      type: 'eventDate_updated',
      eventDateId: ed.body.id,
      eventId: ev.body.id,
      lastUpdated: upd.body.lastUpdated,
    });
    // exactly the changed keys: actual, dateUtc and the computed surprise fields
    expect(updated.changes.map((c) => c.key).sort()).toEqual([
      'actual',
      'dateUtc',
      'isBetterThanExpected',
      'ratioDeviation',
    ]);
    expect(updated.changes).toContainEqual({ key: 'actual', value: 2 });
    expect(updated.changes).toContainEqual({ key: 'dateUtc', value: '2026-03-12T13:35:00Z' });
    expect(byType.get('eventDate_deleted')).toMatchObject({
      type: 'eventDate_deleted',
      eventDateId: ed.body.id,
      eventId: ev.body.id,
    });
    const gone = await call(`${sim.calendarUrl}/en/api/v1/eventDates/${ed.body.id}`, {
      token: cal,
    });
    expect(gone.status).toBe(404);

    const hooks = await call<Hook[]>(`${sim.calendarUrl}/webhooks`, { token: cal });
    expect(hooks.body[0]!.lastSentAt).not.toBeNull();
    expect(Date.parse(hooks.body[0]!.lastSentAt!)).not.toBeNaN();
    const log = (await deliveries()).filter((d) => d.webhookId === r.hook.id);
    expect(log).toHaveLength(4);
    expect(log.every((d) => d.ok && d.status === 204 && d.attempt === 1 && d.url === r.url)).toBe(
      true,
    );
  });

  it('a patch that changes nothing sends nothing; a revision sends only the revised key', async () => {
    const r = await hook(() => 200);
    const ed = await someEventDate();
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { consensus: ed.consensus });
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: 9.9 });
    await waitFor(() => r.received.length >= 1, 'the revision');
    await sim.deliveriesIdle();
    expect(r.received).toHaveLength(1);
    expect((r.received[0]!.body as { changes: unknown }).changes).toEqual([
      { key: 'revised', value: 9.9 },
    ]);
  });

  it('delivers post_created, post_updated and post_deleted to news webhooks only', async () => {
    const calHook = await hook();
    const r = await hook(() => 204, 'news');
    const post = await control<{ Id: string; Title: string; Culture: string }>(
      sim,
      'POST',
      '/posts',
      {
        title: 'Nonfarm Payrolls beat',
        content: '<p>Jobs!</p>',
        culture: 'es-ES',
      },
    );
    expect(post.status).toBe(201);
    expect(post.body).toMatchObject({ Title: 'Nonfarm Payrolls beat', Culture: 'es-ES' });
    const got = await call<{ Title: string }>(`${sim.newsUrl}/v4/es-ES/post/${post.body.Id}`, {
      token: news,
    });
    expect(got.body.Title).toBe('Nonfarm Payrolls beat');
    const patched = await control<{ Title: string; UpdateDate: string }>(
      sim,
      'PATCH',
      `/posts/${post.body.Id}`,
      { culture: 'es-ES', title: 'NFP beat, revised' },
    );
    expect(patched.body.Title).toBe('NFP beat, revised');
    expect(patched.body.UpdateDate).toBeTruthy();
    expect((await control(sim, 'DELETE', `/posts/${post.body.Id}?culture=es-ES`)).status).toBe(200);
    await waitFor(() => r.received.length >= 3, '3 news deliveries');
    const types = r.received.map(
      (x) => x.body as { type: string; postId: string; culture: string; lastUpdated: number },
    );
    expect(types.map((t) => t.type).sort()).toEqual([
      'post_created',
      'post_deleted',
      'post_updated',
    ]);
    for (const t of types) {
      expect(t).toMatchObject({ postId: post.body.Id, culture: 'es-ES' });
      expect(typeof t.lastUpdated).toBe('number');
    }
    expect(
      (await call(`${sim.newsUrl}/v4/es-ES/post/${post.body.Id}`, { token: news })).status,
    ).toBe(404);
    await sim.deliveriesIdle();
    expect(calHook.received).toHaveLength(0);
  });

  it.each([
    ['500', 500],
    ['202 (only 200/204 count)', 202],
    ['201', 201],
  ])(
    'retries a receiver answering %s on the schedule, records every attempt, then gives up',
    async (_n, code) => {
      const r = await hook(() => code);
      const ed = await someEventDate();
      // a value no other test uses, so the patch really changes something
      await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: code / 1000 });
      // first attempt + 2 retries (schedule [50, 100])
      await waitFor(
        async () => (await deliveries()).filter((d) => d.webhookId === r.hook.id).length >= 3,
        'three attempts',
      );
      await new Promise((res) => setTimeout(res, 300));
      await sim.deliveriesIdle();
      const log = (await deliveries()).filter((d) => d.webhookId === r.hook.id);
      expect(log.map((d) => d.attempt)).toEqual([1, 2, 3]);
      expect(log.every((d) => !d.ok && d.status === code && d.type === 'eventDate_updated')).toBe(
        true,
      );
      expect(r.received).toHaveLength(3);
      const hooks = await call<Hook[]>(`${sim.calendarUrl}/webhooks`, { token: cal });
      expect(hooks.body.find((h) => h.id === r.hook.id)!.lastSentAt).toBeNull();
    },
  );

  it('a failure followed by success stops retrying and sets lastSentAt', async () => {
    let n = 0;
    const r = await hook(() => (n++ === 0 ? 503 : 200));
    const ed = await someEventDate();
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: 2.2 });
    await waitFor(
      async () => (await deliveries()).some((d) => d.webhookId === r.hook.id && d.ok),
      'a successful retry',
    );
    await new Promise((res) => setTimeout(res, 300));
    const log = (await deliveries()).filter((d) => d.webhookId === r.hook.id);
    expect(log.map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 503, false],
      [2, 200, true],
    ]);
    const hooks = await call<Hook[]>(`${sim.calendarUrl}/webhooks`, { token: cal });
    expect(hooks.body.find((h) => h.id === r.hook.id)!.lastSentAt).not.toBeNull();
  });

  it('records network errors and timeouts as failures', async () => {
    const dead = await receiver();
    await dead.close(); // nothing listens on this port any more
    await call(`${sim.calendarUrl}/webhooks`, {
      method: 'POST',
      token: cal,
      json: { url: dead.url },
    });
    const slow = await hook(() => -1); // never answers: the 500 ms delivery timeout fires
    const ed = await someEventDate();
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: 3.3 });
    await waitFor(async () => {
      const log = await deliveries();
      return (
        log.filter((d) => d.url === dead.url).length >= 3 &&
        log.filter((d) => d.url === slow.url).length >= 3
      );
    }, 'all attempts to fail');
    const log = await deliveries();
    for (const d of log.filter((x) => x.url === dead.url || x.url === slow.url)) {
      expect(d.ok).toBe(false);
      expect(d.status).toBeNull();
      expect(d.error).toBeTruthy();
    }
  });

  it('fault injection drops or duplicates deliveries', async () => {
    const r = await hook();
    const ed = await someEventDate();
    await control(sim, 'POST', '/faults', { deliveries: { drop: 1 } });
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: 4.4 });
    await sim.deliveriesIdle();
    expect(r.received).toHaveLength(0);
    const dropped = (await deliveries()).filter((d) => d.webhookId === r.hook.id);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.ok).toBe(false);
    // the fault is used up: the next one arrives
    await control(sim, 'POST', '/faults', { deliveries: { duplicate: 1 } });
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: 5.5 });
    await waitFor(() => r.received.length >= 2, 'the duplicated delivery');
    await sim.deliveriesIdle();
    expect(r.received).toHaveLength(2);
    expect(r.received[0]!.body).toEqual(r.received[1]!.body);
    await control(sim, 'PATCH', `/event-dates/${ed.id}`, { revised: 6.6 });
    await waitFor(() => r.received.length >= 3, 'a normal delivery');
    await sim.deliveriesIdle();
    expect(r.received).toHaveLength(3);
  });
});
