/**
 * A node cut off from Redis while Redis is up (its link to Redis cut by a TCP proxy): its
 * own /healthz says why (503, it lost its connection to Redis); the other node's admin page
 * marks it silent with that reason, asked of the node itself, and the chat hears it once
 * however often the desk checks. A node that is down is told apart: "does not answer". A
 * manual clock shared by both nodes makes the 30 s of silence.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import { waitFor } from '../relay/helpers.js';
import { startAlertingNodes } from './alerting-nodes.js';
import { startCuttableProxy } from './desktops.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface AdminNode {
  node: string;
  stale: boolean;
  silentReason: string | null;
}

describe('a node cut off from the store', () => {
  it('shows why on /healthz, the admin page and chat, once; a dead node shows as down', async () => {
    let clock = Date.UTC(2026, 0, 5, 12, 0, 0);
    const { redis, texts, node } = await startAlertingNodes(cleanups, {
      label: 'node-cut',
      now: () => clock,
    });
    const admins = await RedisAdminStore.open({ url: redis.url });
    cleanups.push(() => admins.close());
    const admin = (await admins.add('lead')).token;
    const a = await node('node-a', redis.url);
    const link = await startCuttableProxy(redis.url);
    cleanups.push(() => link.close());
    const b = await node('node-b', `redis://127.0.0.1:${new URL(link.url).port}/0`);
    await a.checkDeskAlerts();
    await b.checkDeskAlerts();
    expect(texts).toEqual([]);

    link.drop(); // Redis is up; node b cannot reach it
    const bHealth = async () => {
      const res = await request(`${b.url}/healthz`);
      return { status: res.statusCode, body: (await res.body.json()) as { reason?: string } };
    };
    await waitFor(async () => (await bHealth()).status === 503, "node b's /healthz");
    expect((await bHealth()).body.reason).toMatch(/lost its connection to Redis/);

    clock += 31_000;
    for (let i = 0; i < 3; i++) {
      await a.checkDeskAlerts();
      await b.checkDeskAlerts();
    }
    expect(texts).toEqual([
      expect.stringMatching(
        /^:rotating_light: Relay node node-b has not reported for 31 s \(it cannot reach the store: the relay lost its connection to Redis/,
      ),
    ]);
    const page = await request(`${a.url}/admin`, {
      headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
    });
    const nodes = ((await page.body.json()) as { nodes: AdminNode[] }).nodes;
    expect(nodes.find((n) => n.node === 'node-b')).toMatchObject({
      stale: true,
      silentReason: expect.stringMatching(/^it cannot reach the store: the relay lost/),
    });
    const html = await request(`${a.url}/admin`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(await html.body.text()).toMatch(/\(silent: it cannot reach the store: the relay lost/);

    // Back on the store: "reports again", once.
    await b.close();
    const b2 = await node('node-b', redis.url);
    await b2.checkDeskAlerts();
    await a.checkDeskAlerts();
    await a.checkDeskAlerts();
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(':white_check_mark: Relay node node-b reports again.');

    // Down (no process): told apart from cut off.
    await b2.close();
    clock += 31_000;
    await a.checkDeskAlerts();
    await a.checkDeskAlerts();
    expect(texts).toHaveLength(3);
    expect(texts[2]).toMatch(
      /^:rotating_light: Relay node node-b has not reported for 31 s \(it does not answer: down\)/,
    );
  }, 60_000);
});
