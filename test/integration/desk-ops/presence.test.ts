// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Presence across a desk of two relay processes on one real redis-server: each desktop
 * (the app's consumer and presence reporter) names itself on connect and reports what it
 * applied; both nodes' records land in Redis, and a desktop whose connection drops shows
 * as disconnected while its last applied id stays. The admin view of either node (the
 * simulator as the service, the desk's keys) shows each trader's lag and who would miss
 * the next HIGH release they watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresenceStore } from '../../../src/relay/desk-ops/presence/redis-presence-store.js';
import { isConnected } from '../../../src/relay/desk-ops/presence/presence-store.js';
import {
  DESK_PRIVATE,
  DESK_PUBLIC,
  relayCommand,
  serviceFlags,
  spawnSimulator,
  stopAll,
  type Proc,
} from '../desk/processes.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import { request } from 'undici';
import { exited, post, spawnRelay, tempDir, waitFor, type RelayProcess } from '../relay/helpers.js';
import { startRedis, type TestRedis } from '../relay/redis-server.js';
import { startCuttableProxy, startDesktop, type Desktop } from './desktops.js';
import { createHighRelease } from '../../support/releases.js';
import type { EventDate } from '../../../src/shared/domain.js';

let sim: Proc;
const env = {
  MACROBELL_PUBLIC_KEY: DESK_PUBLIC,
  MACROBELL_PRIVATE_KEY: DESK_PRIVATE,
  MACROBELL_RELAY_SECRET: 'presence-secret',
  MACROBELL_RELAY_TOKEN: '',
  LOG_LEVEL: 'warn',
};
let redis: TestRedis;
const nodes: RelayProcess[] = [];
const desktops: Desktop[] = [];
let store: RedisPresenceStore;
const traderTokens: Record<string, string> = {};
let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
// the HIGH release the traders watch, made two hours ahead whatever the day
let made: EventDate;

beforeAll(async () => {
  redis = await startRedis();
  sim = await spawnSimulator();
  made = await createHighRelease(sim.url, 2 * 3_600_000);
  const data = tempDir('mb-presence-');
  const flags = ['--port', '0', '--data', data, '--redis', redis.url, ...serviceFlags(sim.url)];
  for (let i = 0; i < 2; i++) nodes.push(await spawnRelay(flags, env));
  store = await RedisPresenceStore.open(redis.url);
}, 90_000);
afterAll(async () => {
  for (const d of desktops) await d.stop();
  await proxy?.close();
  await store?.close();
  for (const n of nodes) n.child.kill('SIGTERM');
  await Promise.all(nodes.map((n) => exited(n.child)));
  await redis?.stop();
  await stopAll([sim]);
});

describe('presence', () => {
  it('knows each desktop, its node and last applied id; a dropped one shows disconnected', async () => {
    const [a, b] = nodes as [RelayProcess, RelayProcess];
    const ana = await addDeskUserOnRedis('ana');
    const ben = await addDeskUserOnRedis('ben');
    Object.assign(traderTokens, { ana, ben });
    proxy = await startCuttableProxy(b.url);
    desktops.push(
      startDesktop({ name: 'ana', url: a.url, token: ana, desktopId: 'desk-ana-0001' }),
      startDesktop({
        name: 'ben',
        url: proxy.url,
        token: ben,
        desktopId: 'desk-ben-0001',
        appVersion: '1.3.0',
      }),
    );
    // A desktop with no cursor gets what is stored from when its stream opened.
    await Promise.all(desktops.map((d) => d.live()));
    for (let n = 1; n <= 3; n++)
      expect(
        (await post(`${a.url}/hooks/presence-secret`, JSON.stringify({ type: 't', n }))).status,
      ).toBe(204);

    const rows = await waitFor(async () => {
      const list = await store.list();
      const done = list.filter((p) => p.appliedId !== null && p.appliedId !== '0');
      return done.length === 2 && done.every((p) => p.appliedId === desktops[0]?.cursor())
        ? list
        : null;
    }, 'both desktops to report the third event');
    const byUser = Object.fromEntries(rows.map((p) => [p.user, p]));
    expect(byUser.ana).toMatchObject({
      desktop: 'desk-ana-0001',
      appVersion: '1.4.2',
      os: 'linux 6.1',
    });
    expect(byUser.ben).toMatchObject({ desktop: 'desk-ben-0001', appVersion: '1.3.0' });
    // Each record names the node its desktop streams from (two processes, two names).
    expect(byUser.ana?.node).not.toBe(byUser.ben?.node);
    expect(byUser.ana?.node).toMatch(new RegExp(`:${new URL(a.url).port}$`));

    proxy.drop();
    const ben2 = await waitFor(async () => {
      const p = (await store.list()).find((r) => r.user === 'ben');
      return p && !p.connected ? p : null;
    }, "ben's desktop to show as disconnected");
    expect(ben2.appliedId).toBe(byUser.ben?.appliedId);
    expect(ben2.disconnectedAt).not.toBeNull();
    const anaNow = (await store.list()).find((r) => r.user === 'ana');
    expect(anaNow && isConnected(anaNow, Date.now())).toBe(true);
  }, 60_000);

  it("shows on any node's admin view: lag, who is away, and who would miss the next HIGH release", async () => {
    const [a, b] = nodes as [RelayProcess, RelayProcess];
    const added = await relayCommand(['admins', 'add', 'lead', '--redis', redis.url]);
    expect(added.code, added.stderr).toBe(0);
    const admin = added.stdout.trimEnd().split('\n').at(-1) as string;
    const view = async (node: RelayProcess) => {
      const res = await request(`${node.url}/admin`, {
        headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
      });
      expect(res.statusCode).toBe(200);
      return (await res.body.json()) as AdminSnapshot;
    };
    const first = await view(b);
    expect(first.releasesError).toBeNull();
    const next = first.releases.find((r) => r.eventId === made.eventId);
    expect(next, 'the release made for this test, on the admin view').toBeDefined();
    if (!next) return;
    for (const [user, token] of Object.entries(traderTokens)) {
      const res = await request(`${a.url}/watchlist`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ eventIds: [next.eventId] }),
      });
      expect(res.statusCode, user).toBe(200);
      await res.body.dump();
    }
    // Two more events while ben is away: ana applies them, ben falls behind by two.
    const missedFrom = Date.now();
    for (let n = 4; n <= 5; n++)
      expect(
        (await post(`${a.url}/hooks/presence-secret`, JSON.stringify({ type: 't', n }))).status,
      ).toBe(204);
    const snap = await waitFor(async () => {
      const s = await view(b);
      const ana = s.traders.find((t) => t.user === 'ana')?.desktops[0];
      return ana?.lagEvents === 0 && ana.appliedId === s.head ? s : null;
    }, 'ana to catch up on the admin view of the other node');
    const ben = snap.traders.find((t) => t.user === 'ben');
    expect(ben?.connected).toBe(false);
    expect(ben?.desktops[0]?.lagEvents).toBe(2);
    // behind since the first event he missed, which came after missedFrom
    expect(ben?.desktops[0]?.lagSeconds).toBeLessThanOrEqual(
      Math.ceil((Date.now() - missedFrom) / 1000),
    );
    expect(snap.traders.find((t) => t.user === 'ana')?.desktops[0]).toMatchObject({
      connected: true,
      appVersion: '1.4.2',
    });
    const release = snap.releases.find((r) => r.id === next.id);
    expect(release?.watchers).toEqual(['ana', 'ben']);
    expect(release?.wouldMiss).toEqual([{ user: 'ben', reason: 'no desktop connected' }]);
    // Each node reports itself on start and every few seconds.
    await waitFor(async () => ((await view(b)).nodes.length === 2 ? true : null), 'both nodes');
  }, 60_000);
});

async function addDeskUserOnRedis(name: string): Promise<string> {
  const r = await relayCommand(['users', 'add', name, '--redis', redis.url]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trimEnd().split('\n').at(-1) as string;
}
