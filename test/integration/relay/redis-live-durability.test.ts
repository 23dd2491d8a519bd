/**
 * A live change of Redis's fsync setting does not go unnoticed: `CONFIG SET appendfsync
 * everysec` on a running Redis turns ingest to 503 and /healthz to 503 with the reason
 * within seconds, the desk's chat hears it once, and `CONFIG SET appendfsync always`
 * brings it all back (and the chat hears that once).
 */
import Redis from 'ioredis';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay } from '../../../src/relay/server.js';
import { post, tempDir, waitFor } from './helpers.js';
import { startChatReceiver } from './chat-receiver.js';
import { startRedis } from './redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('the durability promise on a running Redis', () => {
  it('is checked while all is well: a live appendfsync everysec refuses webhooks with the reason, until fixed', async () => {
    const chat = await startChatReceiver();
    cleanups.push(() => chat.close());
    const texts = chat.texts;
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const relay = await startRelay({
      dataDir: tempDir('mb-live-durability-'),
      secret: 'live-durability-secret',
      token: 'live-durability-token',
      nodeName: 'node-a',
      redis: { url: redis.url, generationCheckMs: 200 },
      deskAlerts: {
        webhookUrl: chat.url,
        checkEveryMs: 0,
      },
    });
    cleanups.push(() => relay.close());
    const admin = new Redis(redis.url);
    cleanups.push(async () => admin.disconnect());
    const health = async () => {
      const r = await request(`${relay.url}/healthz`);
      return { status: r.statusCode, body: (await r.body.json()) as { reason?: string } };
    };
    expect((await post(relay.webhookUrl, '{"type":"before"}')).status).toBe(204);

    await admin.config('SET', 'appendfsync', 'everysec');
    await waitFor(async () => (await health()).status === 503, 'healthz to see the change');
    expect((await health()).body.reason).toMatch(/not set up to keep stored webhooks safely/);
    const refused = await post(relay.webhookUrl, '{"type":"during"}');
    expect(refused.status).toBe(503);
    expect(refused.text).toMatch(/not set up to keep stored webhooks safely/);
    await relay.checkDeskAlerts();
    await relay.checkDeskAlerts();
    expect(texts).toEqual([
      expect.stringMatching(
        /^:rotating_light: The desk's Redis store is down, seen by relay node-a \(Redis is not set up/,
      ),
    ]);

    await admin.config('SET', 'appendfsync', 'always');
    await waitFor(async () => (await health()).status === 200, 'healthz back after the fix');
    expect((await post(relay.webhookUrl, '{"type":"after"}')).status).toBe(204);
    await relay.checkDeskAlerts();
    await relay.checkDeskAlerts();
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(":white_check_mark: The desk's Redis store is back (relay node-a).");
  }, 60_000);
});
