/**
 * Issue #46, item 4: one subscriber of the relay's log that throws must not stall it. On
 * SQLite a throwing `onAppend` listener inside the fsync loop left later batches
 * unresolved (their webhooks never acknowledged) and the loop never re-armed; on Redis it
 * skipped the listeners after it in the tail loop, whose position had already moved on.
 * Both backends, real files and a real redis-server: every append is acknowledged, every
 * other subscriber hears every event, and the failure is reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../../src/relay/log/event-log.js';
import { RedisEventLog } from '../../../src/relay/log/redis-log.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { tempDir, waitFor } from './helpers.js';
import { startRedis } from './redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface Log {
  append(body: Buffer, type: string, headers: Record<string, string>): Promise<string>;
  onAppend(listener: (events: StoredEvent[]) => void): () => void;
}

/** A throwing subscriber first, a counting one after it; three batches in turn. */
async function survivesAThrowingSubscriber(log: Log, reported: () => number) {
  log.onAppend(() => {
    throw new Error('a subscriber bug');
  });
  const heard: string[] = [];
  log.onAppend((events) => heard.push(...events.map((e) => e.id)));
  const ids: string[] = [];
  for (let n = 1; n <= 3; n++)
    ids.push(await log.append(Buffer.from(JSON.stringify({ type: 'x', n })), 'x', {}));
  await waitFor(() => heard.length === 3, 'the second subscriber to hear all three');
  expect(heard).toEqual(ids);
  expect(reported()).toBeGreaterThanOrEqual(1);
}

describe('a relay log subscriber that throws', () => {
  it('on SQLite: every later batch is still acknowledged and heard', async () => {
    const db = openRelayDatabase(tempDir('mb-listeners-'));
    let reported = 0;
    const log = new SqliteEventLog(db, Date.now, 0, undefined, () => reported++);
    cleanups.push(async () => {
      await log.close();
      db.close();
    });
    await survivesAThrowingSubscriber(log, () => reported);
  });

  it('on Redis: the subscribers after it hear every event', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    let reported = 0;
    const log = await RedisEventLog.open({
      url: redis.url,
      dataDir: tempDir('mb-listeners-redis-'),
      logger: { error: () => reported++, warn: () => {}, info: () => {}, debug: () => {} } as never,
    });
    cleanups.push(() => log.close());
    await survivesAThrowingSubscriber(log, () => reported);
  });
});
