/**
 * The relay's Redis user cannot read replication credentials: the shipped ACL gives it no
 * CONFIG (`CONFIG GET` cannot be narrowed to some settings, and `masterauth` is a replica's
 * password). The fsync promise is then the operator's statement (`--redis-durability
 * aof-always`), checked against what Redis shows without CONFIG, and a runtime `CONFIG
 * SET` is reported on /healthz and to the desk chat once, webhooks still taken.
 */
import Redis from 'ioredis';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay } from '../../../src/relay/server.js';
import { startChatReceiver } from './chat-receiver.js';
import { post, tempDir, waitFor } from './helpers.js';
import { startShippedAclRedis } from './redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const RELAY_PW = 'relay-user-password-0123';
const ADMIN_PW = 'admin-user-password-4567';
const REPLICA_PW = 'replica-link-password-89ab';
const AUTH = { username: 'macrobell-relay', password: RELAY_PW };

/** Redis with the shipped ACL file, an operator's admin user and a replica password. */
async function shippedRedis() {
  const ADMIN = { username: 'admin', password: ADMIN_PW };
  const r = await startShippedAclRedis(RELAY_PW, {
    admin: ADMIN,
    extraArgs: ['--masterauth', REPLICA_PW],
  });
  cleanups.push(() => r.stop());
  const admin = new Redis(r.url, ADMIN);
  cleanups.push(async () => admin.disconnect());
  return { r, admin };
}

const health = async (url: string) => {
  const res = await request(`${url}/healthz`);
  return {
    status: res.statusCode,
    body: (await res.body.json()) as { ok: boolean; reason?: string; durability?: string },
  };
};

describe('the relay user under the shipped ACL', () => {
  it('cannot read the replica password, nor any setting', async () => {
    const { r } = await shippedRedis();
    const asRelay = new Redis(r.url, { ...AUTH, lazyConnect: true });
    cleanups.push(async () => asRelay.disconnect());
    await asRelay.connect();
    await expect(asRelay.config('GET', 'masterauth')).rejects.toThrow(/NOPERM/);
    await expect(asRelay.config('GET', '*')).rejects.toThrow(/NOPERM/);
    await expect(asRelay.call('ACL', 'LIST')).rejects.toThrow(/NOPERM/);
    // What it may read instead says nothing of the password.
    const info = await asRelay.info('all');
    expect(info).not.toContain(REPLICA_PW);
  }, 60_000);

  it('refuses to start without the statement, and names the flag', async () => {
    const { r } = await shippedRedis();
    await expect(
      startRelay({
        dataDir: tempDir('mb-stated-'),
        secret: 'stated-secret',
        token: 'stated-token',
        redis: { url: r.url, auth: AUTH },
      }),
    ).rejects.toThrow(/no CONFIG permission.*--redis-durability aof-always/s);
  }, 60_000);

  it('runs on the statement, reports a runtime CONFIG SET once, and refuses webhooks when the AOF is off', async () => {
    const { r, admin } = await shippedRedis();
    const chat = await startChatReceiver();
    cleanups.push(() => chat.close());
    const relay = await startRelay({
      dataDir: tempDir('mb-stated-'),
      secret: 'stated-secret',
      token: 'stated-token',
      nodeName: 'node-a',
      redis: { url: r.url, auth: AUTH, durability: 'aof-always', generationCheckMs: 200 },
      deskAlerts: { webhookUrl: chat.url, checkEveryMs: 0 },
    });
    cleanups.push(() => relay.close());
    expect(relay.durability).toMatch(
      /^appendfsync always \(stated by --redis-durability aof-always/,
    );
    expect(await health(relay.url)).toEqual({
      status: 200,
      body: expect.not.objectContaining({ durability: expect.anything() }) as object,
    });
    expect((await post(relay.webhookUrl, '{"type":"before"}')).status).toBe(204);

    // Someone turns fsync down at runtime: the relay cannot see the value, only that it changed.
    await admin.config('SET', 'appendfsync', 'everysec');
    await waitFor(
      async () => (await health(relay.url)).body.durability !== undefined,
      'healthz to report the runtime change',
    );
    const h = await health(relay.url);
    expect(h.status).toBe(200);
    expect(h.body.durability).toMatch(/^unverified: .*CONFIG SET 1× since this node started/);
    expect((await post(relay.webhookUrl, '{"type":"still taken"}')).status).toBe(204);
    await relay.checkDeskAlerts();
    await relay.checkDeskAlerts();
    expect(chat.texts).toEqual([
      expect.stringMatching(/^:warning: The desk's Redis: unverified: .*relay node-a/),
    ]);

    // The append-only file turned off: the statement is visibly false, webhooks get 503.
    await admin.config('SET', 'appendonly', 'no');
    await waitFor(async () => (await health(relay.url)).status === 503, 'healthz to turn 503');
    const refused = await post(relay.webhookUrl, '{"type":"refused"}');
    expect(refused.status).toBe(503);
  }, 90_000);
});
