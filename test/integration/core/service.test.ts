// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the calendar of a simulator started today)
/**
 * The core end to end against the simulator over real HTTP, with a real SQLite file:
 * backfill, the idempotent apply path for every notification type, polling bursts,
 * offline start from the cache, and the secret-leak grep.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import type { RelayConsumerFactory } from '../../../src/main/sync/live-source.js';
import { simJson, startCore, waitFor, type CoreHarness } from './harness.js';

const DAY = 86_400_000;
const window = () => ({
  from: new Date(Date.now() - 8 * DAY).toISOString(),
  to: new Date(Date.now() + 15 * DAY).toISOString(),
});

describe('backfill and the apply path', () => {
  let h: CoreHarness;
  let apply: (id: string, payload: unknown) => Promise<void>;
  let applyBatch: (items: { id: string; payload: unknown }[]) => Promise<void>;
  let nextId = 1;
  const deliver = (payload: unknown) => apply(String(nextId++), payload);

  beforeAll(async () => {
    // A test driver in place of the SSE consumer: it hands notifications to the same
    // apply path the relay consumer uses.
    const relayConsumer: RelayConsumerFactory = (o) => {
      apply = (id, payload) => o.applier.one(id, payload);
      applyBatch = async (items) => {
        await o.applier.batch?.(items);
      };
      return {
        start: () =>
          o.onStatus({
            connected: true,
            node: null,
            lastEventId: null,
            lastEventAt: null,
            lagMs: null,
            error: null,
          }),
        stop: () => undefined,
      };
    };
    h = await startCore({
      service: { relayConsumer, env: { MACROBELL_RELAY_URL: 'http://127.0.0.1:9/relay' } },
    });
  });
  afterAll(() => h?.close());

  it('fills the calendar, categories and news from the service, with progress', async () => {
    await h.service.start();
    const dates = await h.service.api.listEventDates(window());
    expect(dates.length).toBeGreaterThan(50);
    expect(await h.service.api.listCategories()).toHaveLength(12);
    const posts = await h.service.api.listPosts({ page: 1, pageSize: 20 });
    expect(posts.items.length).toBeGreaterThan(0);
    const progress = h.events.backfill;
    expect(progress.some((p) => p.running)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ running: false });
    const status = await h.service.api.getStatus();
    expect(status.online).toBe(true);
    expect(status.lastSyncAt).not.toBeNull();
  });

  it('applies a release once, alerts once, even when the webhook arrives twice', async () => {
    const upcoming = (await h.service.api.listEventDates(window())).find(
      (d) => d.actual === null && d.volatility === 'HIGH' && Date.parse(d.dateUtc) > Date.now(),
    ) as EventDate;
    expect(upcoming).toBeDefined();
    const updated = await simJson<EventDate>(h.sim, 'PATCH', `/_sim/event-dates/${upcoming.id}`, {
      actual: 123.4,
    });
    const payload = {
      type: 'eventDate_updated',
      eventDateId: upcoming.id,
      eventId: upcoming.eventId,
      lastUpdated: updated.lastUpdated,
      changes: [{ key: 'actual', value: 123.4 }],
    };
    const before = h.events.changes.flat().length;
    await deliver(payload);
    await deliver(payload);
    const released = h.events.changes
      .flat()
      .slice(before)
      .filter((c) => c.kind === 'released');
    expect(released).toHaveLength(1);
    const row = (await h.service.api.listEventDates(window())).find((d) => d.id === upcoming.id);
    expect(row?.actual).toBe(123.4);
    const alerts = await h.service.api.listAlerts({ limit: 100 });
    expect(
      alerts.filter(
        (a) =>
          a.kind === 'released' &&
          a.target.type === 'eventDate' &&
          a.target.eventDateId === upcoming.id,
      ),
    ).toHaveLength(1);
  });

  it('applies a burst in one go: duplicates once, order kept, cursor at the last id', async () => {
    const rows = (await h.service.api.listEventDates(window()))
      .filter((d) => d.actual === null)
      .slice(0, 2);
    const [a, b] = rows as [EventDate, EventDate];
    const upd = (d: EventDate, v: number) => ({
      type: 'eventDate_updated',
      eventDateId: d.id,
      eventId: d.eventId,
      lastUpdated: d.lastUpdated + 100,
      changes: [{ key: 'actual', value: v }],
    });
    const before = h.events.changes.flat().length;
    const first = nextId;
    await applyBatch([
      { id: String(nextId++), payload: upd(a, 1.1) },
      { id: String(nextId++), payload: upd(a, 1.1) },
      { id: String(nextId++), payload: upd(b, 2.2) },
    ]);
    const released = h.events.changes
      .flat()
      .slice(before)
      .filter((c) => c.kind === 'released')
      .map((c) => ('eventDate' in c ? c.eventDate?.id : null));
    expect(released).toEqual([a.id, b.id]);
    // the same burst again (a replay after a reconnect) changes nothing
    const mid = h.events.changes.flat().length;
    await applyBatch([
      { id: String(first), payload: upd(a, 1.1) },
      { id: String(first + 2), payload: upd(b, 2.2) },
    ]);
    expect(h.events.changes.flat().length).toBe(mid);
  });

  it('ignores an older update that arrives after a newer one', async () => {
    const d = (await h.service.api.listEventDates(window())).find(
      (x) => x.actual === null,
    ) as EventDate;
    await deliver({
      type: 'eventDate_updated',
      eventDateId: d.id,
      eventId: d.eventId,
      lastUpdated: d.lastUpdated + 20,
      changes: [{ key: 'consensus', value: 5 }],
    });
    await deliver({
      type: 'eventDate_updated',
      eventDateId: d.id,
      eventId: d.eventId,
      lastUpdated: d.lastUpdated + 10,
      changes: [{ key: 'consensus', value: 1 }],
    });
    const row = (await h.service.api.listEventDates(window())).find((x) => x.id === d.id);
    expect(row?.consensus).toBe(5);
  });

  it('fetches created records, removes deleted ones and does not resurrect them', async () => {
    const some = (await h.service.api.listEventDates(window()))[0] as EventDate;
    const created = await simJson<EventDate>(h.sim, 'POST', '/_sim/event-dates', {
      eventId: some.eventId,
      dateUtc: new Date(Date.now() + 3 * DAY).toISOString(),
    });
    await deliver({
      type: 'eventDate_created',
      eventDateId: created.id,
      eventId: created.eventId,
      lastUpdated: created.lastUpdated,
    });
    expect((await h.service.api.listEventDates(window())).some((x) => x.id === created.id)).toBe(
      true,
    );

    await simJson(h.sim, 'DELETE', `/_sim/event-dates/${created.id}`);
    await deliver({
      type: 'eventDate_deleted',
      eventDateId: created.id,
      eventId: created.eventId,
      lastUpdated: created.lastUpdated + 1,
    });
    await deliver({
      type: 'eventDate_updated',
      eventDateId: created.id,
      eventId: created.eventId,
      lastUpdated: created.lastUpdated,
      changes: [{ key: 'actual', value: 1 }],
    });
    expect((await h.service.api.listEventDates(window())).some((x) => x.id === created.id)).toBe(
      false,
    );
    expect(
      h.events.changes
        .flat()
        .some((c) => c.kind === 'eventDateRemoved' && c.eventDateId === created.id),
    ).toBe(true);
  });

  it('applies post notifications: published, updated, removed', async () => {
    const post = await simJson<{ Id: string }>(h.sim, 'POST', '/_sim/posts', {
      culture: 'en-US',
      title: 'Fed holds rates steady, signals patience',
      summary: 'The FOMC kept the target range unchanged.',
      content: '<p>The Federal Reserve kept its policy rate unchanged.</p>',
    });
    await deliver({
      type: 'post_created',
      postId: post.Id,
      culture: 'en-US',
      lastUpdated: Math.floor(Date.now() / 1000),
    });
    expect((await h.service.api.getPost({ id: post.Id, culture: 'en-US' }))?.title).toMatch(
      /Fed holds/,
    );
    const hits = await h.service.api.searchPosts({ query: 'patience' });
    expect(hits.some((x) => x.id === post.Id)).toBe(true);

    await simJson(h.sim, 'PATCH', `/_sim/posts/${post.Id}`, {
      culture: 'en-US',
      title: 'Fed holds rates, eyes December',
    });
    await deliver({
      type: 'post_updated',
      postId: post.Id,
      culture: 'en-US',
      lastUpdated: Math.floor(Date.now() / 1000) + 1,
    });
    expect((await h.service.api.getPost({ id: post.Id, culture: 'en-US' }))?.title).toMatch(
      /December/,
    );

    await deliver({
      type: 'post_deleted',
      postId: post.Id,
      culture: 'en-US',
      lastUpdated: Math.floor(Date.now() / 1000) + 2,
    });
    expect(await h.service.api.getPost({ id: post.Id, culture: 'en-US' })).toBeNull();
    const kinds = h.events.changes
      .flat()
      .filter((c) => 'post' in c || c.kind === 'postRemoved')
      .map((c) => c.kind);
    expect(kinds).toEqual(expect.arrayContaining(['postPublished', 'postUpdated', 'postRemoved']));
  });

  it('fetches a created event once', async () => {
    const ev = await simJson<{ id: string }>(h.sim, 'POST', '/_sim/events', {
      name: 'New Indicator Index',
      countryCode: 'US',
      currencyCode: 'USD',
      volatility: 'HIGH',
    });
    const before = h.events.changes.flat().length;
    await deliver({ type: 'event_created', eventId: ev.id });
    await deliver({ type: 'event_created', eventId: ev.id });
    const added = h.events.changes
      .flat()
      .slice(before)
      .filter((c) => c.kind === 'eventAdded');
    expect(added).toHaveLength(1);
    expect((await h.service.api.getEventDetail({ eventId: ev.id })).event?.name).toBe(
      'New Indicator Index',
    );
  });

  it('keeps unknown notification types and rejects bodies that are not notifications', async () => {
    await expect(deliver({ type: 'calendar_reindexed', scope: 'all' })).resolves.toBeUndefined();
    // a malformed body is skipped (recorded as applied), never retried forever
    await expect(deliver({ nope: true })).resolves.toBeUndefined();
  });
});

describe('polling', () => {
  let h: CoreHarness;
  afterAll(() => h?.close());

  it('bursts around a watched release so the print arrives within seconds', async () => {
    h = await startCore();
    await h.service.api.updateSettings({
      polling: { baseIntervalSec: 5, burstIntervalSec: 0.3, burstLeadSec: 5, burstTimeoutSec: 60 },
    });
    await h.service.start();
    const any = (await h.service.api.listEventDates(window()))[0] as EventDate;
    const at = new Date(Date.now() + 4_000).toISOString();
    const ed = await simJson<EventDate>(h.sim, 'POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: at,
      volatility: 'HIGH',
    });
    await h.service.api.setWatched({ eventId: ed.eventId, watched: true });
    // the next base poll (≤ 5 s) sees the new occurrence and plans its burst
    await waitFor(
      async () => (await h.service.api.listEventDates(window())).some((x) => x.id === ed.id),
      'the new occurrence',
      20_000,
    );
    await waitFor(() => Date.now() >= Date.parse(at), 'the release time', 10_000);
    await simJson(h.sim, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 3.3 });
    const printedAt = Date.now();
    await waitFor(
      () => h.events.changes.flat().some((c) => c.kind === 'released' && c.eventDate.id === ed.id),
      'the print to arrive by polling',
      20_000,
    );
    // well inside the base interval: it came from the burst
    expect(Date.now() - printedAt).toBeLessThan(4_500);
  });
});

describe('offline and secrets', () => {
  it('starts from the cache with no network, and no secret reaches disk or the API', async () => {
    const keys = { publicKey: 'pk-LEAKCHECK-8c1f2e', privateKey: 'sk-LEAKCHECK-93b7aa' };
    const first = await startCore({ keys });
    const responses: string[] = [];
    first.service.on('status', (s) => responses.push(JSON.stringify(s)));
    await first.service.start();
    for (const call of [
      () => first.service.api.getStatus(),
      () => first.service.api.getCredentials(),
      () => first.service.api.getSettings(),
      () => first.service.api.testConnection(),
      () => first.service.api.getDiagnostics(),
      () => first.service.api.listEventDates(window()),
    ]) {
      responses.push(JSON.stringify(await call()));
    }
    const cached = (await first.service.api.listEventDates(window())).length;
    const dataDir = first.dataDir;
    await first.service.stop();
    await first.sim.close();

    // The network is gone: the app still opens on its cache and says it is offline.
    const second = await startCore({ keys, dataDir, sim: first.sim });
    await second.service.start();
    expect((await second.service.api.listEventDates(window())).length).toBe(cached);
    expect(
      (await second.service.api.listPosts({ page: 1, pageSize: 10 })).items.length,
    ).toBeGreaterThan(0);
    const status = await second.service.api.getStatus();
    expect(status.mode).toBe('offline');
    expect(status.lastError?.message).toBeTruthy();
    responses.push(JSON.stringify(status), await second.service.api.getDiagnostics());
    await second.service.stop();

    const files = listFiles(dataDir);
    expect(files.some((f) => f.endsWith('.db'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file).toString('latin1');
      expect(text, file).not.toContain(keys.privateKey);
      expect(text, file).not.toContain(keys.publicKey);
    }
    for (const body of [...responses, ...first.events.status.map((s) => JSON.stringify(s))]) {
      expect(body).not.toContain(keys.privateKey);
      expect(body).not.toContain(keys.publicKey);
    }
  });
});

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}
