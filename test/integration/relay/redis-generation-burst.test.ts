/**
 * The store-generation check during a burst: a node compares the stream's last id in Redis
 * with the last id its tail has passed on. Its tail keeps reading while the check's XINFO
 * is answered, so a check that took "what this node had seen" after the answer called a
 * healthy Redis "came back older than it was" — /healthz 503 and a store-lost post in the
 * desk's chat in the middle of a burst (seen when `kill -9` of Redis followed 60 webhooks).
 * Here one XINFO answer is held until the tail has read a newer append, every time.
 */
import Redis from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisEventLog } from '../../../src/relay/log/redis-log.js';
import { tempDir, waitFor } from './helpers.js';
import { startRedis } from './redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('the store-generation check', () => {
  it('finds no loss when the tail reads past the stream id its XINFO answered', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const log = await RedisEventLog.open({
      url: redis.url,
      dataDir: tempDir('mb-generation-burst-'),
      generationCheckMs: 20,
    });
    cleanups.push(() => log.close());
    await log.append(Buffer.from('{"type":"first"}'), 'first', {});

    const call = Redis.prototype.call;
    let xinfoAnswers = 0;
    let overtaken: string | null = null;
    vi.spyOn(Redis.prototype, 'call').mockImplementation(async function (
      this: Redis,
      ...args: Parameters<Redis['call']>
    ) {
      const reply: unknown = await (call as (...a: unknown[]) => Promise<unknown>).apply(
        this,
        args,
      );
      if (String(args[0]).toUpperCase() !== 'XINFO') return reply;
      xinfoAnswers++;
      if (overtaken === null) {
        // a webhook of the burst, stored and read by this node's tail before the check goes on
        const id = await log.append(Buffer.from('{"type":"burst"}'), 'burst', {});
        await waitFor(() => log.lastId() === id, "the tail to read the burst's webhook");
        overtaken = id;
      }
      return reply;
    });

    // Checks run one after another: a later XINFO means the overtaken one has finished.
    const held = await waitFor(
      () => (overtaken !== null && xinfoAnswers >= 3 ? overtaken : null),
      'checks after the held one',
    );
    expect(log.lastId()).toBe(held);
    expect(log.health()).toMatchObject({ ok: true });
    expect(log.health().storeLost).toBeUndefined();
  });
});
