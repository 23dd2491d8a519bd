/**
 * A store wiped while a node was away, then opened first by a node with a fresh data folder:
 * that node finds no marker and no memory, so it makes a new marker and reports nothing. The
 * node that remembers the old store must not adopt the new one in silence — it records the
 * loss for every node to report. Once an operator accepts the loss, a node that still
 * remembers the old store adopts the accepted one without raising it again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisEventLog } from '../../../src/relay/log/redis-log.js';
import { acceptStoreLoss } from '../../../src/relay/log/redis-generation.js';
import { tempDir, waitFor } from './helpers.js';
import { startRedis } from './redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const open = async (url: string, dataDir: string) => {
  const log = await RedisEventLog.open({ url, dataDir, generationCheckMs: 20 });
  cleanups.push(() => log.close());
  return log;
};

describe('a store-generation marker this node never saw', () => {
  it('is a loss when the store was wiped and a fresh node opened it first; accepted, it is not raised again', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const admin = new Redis(redis.url);
    cleanups.push(() => admin.quit());
    const nodeA = tempDir('mb-generation-a-');
    const nodeC = tempDir('mb-generation-c-');

    // nodes a and c know the desk's store, then stop
    for (const dir of [nodeA, nodeC]) {
      const log = await open(redis.url, dir);
      await log.append(Buffer.from('{"type":"first"}'), `first-${dir}`, {});
      await waitFor(() => log.health().ok, 'a healthy store');
      await log.close();
    }

    // the store is wiped; node b, with a new data folder, opens it first and sees nothing wrong
    await admin.flushall();
    const nodeB = await open(redis.url, tempDir('mb-generation-b-'));
    await waitFor(() => nodeB.health().ok, 'node b on the new store');
    expect(nodeB.health().storeLost).toBeUndefined();

    // node a remembers the old store: it records the loss, and node b reports it too
    const a = await open(redis.url, nodeA);
    await waitFor(() => a.health().storeLost, 'node a to find the loss');
    expect(a.health()).toMatchObject({ ok: false });
    expect(a.health().storeLost?.reason).toMatch(/store this node never saw/);
    await waitFor(() => nodeB.health().storeLost, 'node b to report the recorded loss');

    // accepted: both clear, and node c (which still remembers the old store) adopts it quietly
    expect(await acceptStoreLoss(admin)).toBe(true);
    await waitFor(() => a.health().ok && nodeB.health().ok, 'both nodes healthy again');
    const c = await open(redis.url, nodeC);
    await waitFor(() => c.health().ok, 'node c on the accepted store');
    // its first check is done once it remembers the accepted generation: a loss would be
    // recorded by then
    const { generation } = await admin.hgetall('macrobell:{relay}:store');
    const remembered = () => readFileSync(join(nodeC, 'redis-store.json'), 'utf8');
    await waitFor(() => remembered().includes(generation!), 'node c to remember the store');
    expect((await admin.hgetall('macrobell:{relay}:store')).lostAt).toBeUndefined();
    expect(c.health().storeLost).toBeUndefined();
  });
});
