/**
 * The desk's own view when Redis does not answer (#43 item 4): with redis-server stopped,
 * the admin page and `relay status` answer 200 with what the node knows — its store's
 * reason now, and the last good page (traders, the other node) dated — for an admin this
 * node checked before; an admin it never saw, and any action (replay), still get 503.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import { statusCommand } from '../../../src/relay/desk-ops/cli-ops.js';
import { waitFor } from '../relay/helpers.js';
import { startAlertingNodes } from './alerting-nodes.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('the desk page while the store is down', () => {
  it("shows this node's view and the last good page to a known admin; 503 otherwise", async () => {
    const { redis, node, texts } = await startAlertingNodes(cleanups, { label: 'store-down' });
    const admins = await RedisAdminStore.open({ url: redis.url });
    const lead = (await admins.add('lead')).token;
    const other = (await admins.add('other')).token;
    await admins.close();
    const a = await node('node-a');
    const b = await node('node-b');
    await b.checkDeskAlerts(); // node b reports itself
    await a.checkDeskAlerts(); // node a learns the desk's live nodes (it speaks for the desk)
    const get = async (token: string, accept = 'application/json') => {
      const res = await request(`${a.url}/admin`, {
        headers: { authorization: `Bearer ${token}`, accept },
      });
      const text = await res.body.text();
      return { status: res.statusCode, text };
    };
    const good = await get(lead);
    expect(good.status).toBe(200);
    const before = JSON.parse(good.text) as AdminSnapshot;
    expect(before.storeUnavailable).toBeUndefined();
    expect(before.nodes.map((n) => n.node)).toEqual(['node-a', 'node-b']);

    await redis.kill('SIGKILL'); // redis-server stopped: refused, not frozen
    await waitFor(async () => (await request(`${a.url}/healthz`)).statusCode === 503, '503');
    await a.checkDeskAlerts(); // the outage's alert: open on node a, posted once
    expect(texts).toEqual([
      expect.stringMatching(/^:rotating_light: The desk's Redis store is down/),
    ]);

    const page = await get(lead);
    expect(page.status).toBe(200);
    const now = JSON.parse(page.text) as AdminSnapshot;
    expect(now.storeUnavailable).toEqual({
      reason: 'the relay lost its connection to Redis and is reconnecting',
      knownAt: before.generatedAt,
      durability: null,
      storeLostAt: null,
      openAlerts: texts,
    });
    expect(now.nodes.find((n) => n.node === 'node-a')).toMatchObject({
      storeOk: false,
      storeReason: 'the relay lost its connection to Redis and is reconnecting',
    });
    expect(now.nodes.find((n) => n.node === 'node-b')).toEqual(
      before.nodes.find((n) => n.node === 'node-b'),
    );
    const html = await get(lead, 'text/html');
    expect(html.status).toBe(200);
    expect(html.text.match(/data-store-unavailable/g)).toHaveLength(1);
    expect(html.text).toContain('Open alerts, as this node saw them: :rotating_light: The desk');
    expect(html.text).toMatch(/The desk's store does not answer: the relay lost its connection/);

    // `relay status`: exit 0, the store's problem on its own line, once.
    const out: string[] = [];
    const errs: string[] = [];
    const io = {
      env: { MACROBELL_ADMIN_TOKEN: lead },
      out: (l: string) => out.push(l),
      err: (l: string) => errs.push(l),
    };
    expect(await statusCommand(['--url', a.url], io)).toBe(0);
    expect(errs).toEqual([]);
    expect(out.filter((l) => l.startsWith('STORE UNAVAILABLE'))).toEqual([
      'STORE UNAVAILABLE: the relay lost its connection to Redis and is reconnecting',
    ]);
    expect(out).toContainEqual(expect.stringMatching(/^ {2}node-a .* store DOWN \(the relay lost/));
    expect(out.filter((l) => l.startsWith('  open alert: '))).toEqual([
      `  open alert: ${texts[0]}`,
    ]);

    // An admin this node never checked cannot be vouched for; an action needs the store.
    const unknown = await get(other);
    expect(unknown.status).toBe(503);
    expect(JSON.parse(unknown.text)).toMatchObject({ error: 'store_unavailable' });
    const replay = await request(`${a.url}/admin/replay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${lead}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'bob', since: '1h' }),
    });
    expect(replay.statusCode).toBe(503);
    await replay.body.dump();
  }, 60_000);
});
