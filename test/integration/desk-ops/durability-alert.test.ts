/**
 * The durability alert closes (#43 item 5). Two nodes under the shipped ACL (the promise
 * stated with --redis-durability aof-always): a runtime `CONFIG SET appendfsync everysec`
 * is posted once for the desk, and the page and `relay status` show it instead of "store
 * ok"; the documented fix (restart the nodes) posts one recovery — the restarted nodes
 * take the desk's open alert back from the store — and the same fault again is posted
 * again. Every chat post counted. Restarting one node at a time (#43 item 3): the node
 * restarted takes the open alert back without posting it again, and without closing it
 * while the other node still sees the change; the recovery is posted once, when the last
 * node is restarted.
 */
import Redis from 'ioredis';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import { statusCommand } from '../../../src/relay/desk-ops/cli-ops.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { startChatReceiver } from '../relay/chat-receiver.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startShippedAclRedis } from '../relay/redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const RELAY_PW = 'relay-user-password-0123';
const AUTH = { username: 'macrobell-relay', password: RELAY_PW };
const ADMIN = { username: 'admin', password: 'admin-user-password-4567' };

describe('the durability alert', () => {
  it('posts once when it opens, once when the nodes restart, and again when it recurs', async () => {
    const r = await startShippedAclRedis(RELAY_PW, { admin: ADMIN });
    cleanups.push(() => r.stop());
    const operator = new Redis(r.url, ADMIN);
    cleanups.push(async () => operator.disconnect());
    const chat = await startChatReceiver();
    cleanups.push(() => chat.close());
    const admins = await RedisAdminStore.open({ url: r.url, auth: AUTH });
    const lead = (await admins.add('lead')).token;
    await admins.close();
    const dirs = { 'node-a': tempDir('mb-dur-a-'), 'node-b': tempDir('mb-dur-b-') };
    const start = async (name: 'node-a' | 'node-b'): Promise<RunningRelay> => {
      const relay = await startRelay({
        dataDir: dirs[name],
        secret: 'dur-secret',
        token: 'dur-token',
        nodeName: name,
        redis: { url: r.url, auth: AUTH, durability: 'aof-always', generationCheckMs: 200 },
        deskAlerts: { webhookUrl: chat.url, checkEveryMs: 0 },
      });
      cleanups.push(() => relay.close());
      return relay;
    };
    let nodes = [await start('node-a'), await start('node-b')];
    const checkAll = async () => {
      for (let i = 0; i < 2; i++) for (const n of nodes) await n.checkDeskAlerts();
    };
    const unverified = async (n: RunningRelay) => {
      const body = (await (await request(`${n.url}/healthz`)).body.json()) as {
        durability?: string;
      };
      return body.durability?.startsWith('unverified:') === true;
    };
    const fsyncSetAtRuntime = async () => {
      await operator.config('SET', 'appendfsync', 'everysec');
      for (const n of nodes) await waitFor(() => unverified(n), 'the runtime change seen');
      await checkAll();
    };
    await checkAll();
    expect(chat.texts).toEqual([]);

    await fsyncSetAtRuntime();
    const warning = /^:warning: The desk's Redis: unverified: .*CONFIG SET 1×/;
    expect(chat.texts).toEqual([expect.stringMatching(warning)]);
    // The page and `relay status` say so, not "store ok".
    const page = await request(`${nodes[0]!.url}/admin`, {
      headers: { authorization: `Bearer ${lead}`, accept: 'application/json' },
    });
    const snap = (await page.body.json()) as AdminSnapshot;
    expect(snap.nodes.map((n) => [n.node, n.storeOk, n.durability?.slice(0, 11)])).toEqual([
      ['node-a', true, 'unverified:'],
      ['node-b', true, 'unverified:'],
    ]);
    const out: string[] = [];
    const io = {
      env: { MACROBELL_ADMIN_TOKEN: lead },
      out: (l: string) => out.push(l),
      err: () => undefined,
    };
    expect(await statusCommand(['--url', nodes[0]!.url], io)).toBe(0);
    expect(out.filter((l) => / store DURABILITY AT RISK \(unverified: /.test(l))).toHaveLength(2);
    expect(out.filter((l) => / store ok/.test(l))).toEqual([]);

    // The documented fix: put the setting back and restart the nodes. One recovery.
    await operator.config('SET', 'appendfsync', 'always');
    for (const n of nodes) await n.close();
    nodes = [await start('node-a'), await start('node-b')];
    await checkAll();
    expect(chat.texts).toHaveLength(2);
    expect(chat.texts[1]).toMatch(
      /^:white_check_mark: The desk's Redis durability is as stated again/,
    );

    // The same fault again: posted again, once.
    await fsyncSetAtRuntime();
    expect(chat.texts).toHaveLength(3);
    expect(chat.texts[2]).toMatch(/^:warning: The desk's Redis: unverified: .*CONFIG SET 1×/);
  }, 90_000);

  it('restarted one node at a time: no second post, and one recovery once both are', async () => {
    const r = await startShippedAclRedis(RELAY_PW, { admin: ADMIN });
    cleanups.push(() => r.stop());
    const operator = new Redis(r.url, ADMIN);
    cleanups.push(async () => operator.disconnect());
    const chat = await startChatReceiver();
    cleanups.push(() => chat.close());
    const dirs = { 'node-a': tempDir('mb-dur-a-'), 'node-b': tempDir('mb-dur-b-') };
    const start = async (name: 'node-a' | 'node-b'): Promise<RunningRelay> => {
      const relay = await startRelay({
        dataDir: dirs[name],
        secret: 'dur-secret',
        token: 'dur-token',
        nodeName: name,
        redis: { url: r.url, auth: AUTH, durability: 'aof-always', generationCheckMs: 200 },
        deskAlerts: { webhookUrl: chat.url, checkEveryMs: 0 },
      });
      cleanups.push(() => relay.close());
      return relay;
    };
    const nodes = { a: await start('node-a'), b: await start('node-b') };
    const checkAll = async () => {
      for (let i = 0; i < 2; i++) for (const n of [nodes.a, nodes.b]) await n.checkDeskAlerts();
    };
    const unverified = async (n: RunningRelay) => {
      const body = (await (await request(`${n.url}/healthz`)).body.json()) as {
        durability?: string;
      };
      return body.durability?.startsWith('unverified:') === true;
    };
    await checkAll();
    await operator.config('SET', 'appendfsync', 'everysec');
    for (const n of [nodes.a, nodes.b]) await waitFor(() => unverified(n), 'the change seen');
    await checkAll();
    expect(chat.texts).toEqual([
      expect.stringMatching(/^:warning: The desk's Redis: unverified: /),
    ]);
    await operator.config('SET', 'appendfsync', 'always');

    // node-b first (it does not speak for the desk), then node-a (it does): node-a still
    // sees the change while node-b restarts, node-b while node-a restarts.
    await nodes.b.close();
    nodes.b = await start('node-b');
    await checkAll();
    expect(await unverified(nodes.a)).toBe(true);
    expect(chat.texts).toHaveLength(1);
    await nodes.a.close();
    nodes.a = await start('node-a');
    // node-b's figures say nothing about the change any more: both restarted, the fix done.
    await checkAll();
    expect(chat.texts).toEqual([
      expect.stringMatching(/^:warning: The desk's Redis: unverified: /),
      expect.stringMatching(/^:white_check_mark: The desk's Redis durability is as stated again/),
    ]);
    await checkAll();
    expect(chat.texts).toHaveLength(2);
  }, 90_000);
});
