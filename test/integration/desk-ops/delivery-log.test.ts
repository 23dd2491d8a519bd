/**
 * The delivery log of a recent range reads the log from just before that range, not from
 * its start: a week of webhooks before the last hour is not read page by page.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryLog } from '../../../src/relay/desk-ops/replay/delivery-log.js';
import { MemoryPresenceStore } from '../../../src/relay/desk-ops/presence/presence-store.js';
import type { EventLog } from '../../../src/relay/log/event-log.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { RedisEventLog } from '../../../src/relay/log/redis-log.js';
import { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { startRedis } from '../relay/redis-server.js';

const HOUR = 3_600_000;
const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

/** Pages read: every `after()` call the delivery log makes. */
function counting(log: EventLog) {
  const reads: string[] = [];
  const after = log.after.bind(log);
  log.after = (id, limit, maxBytes) => {
    reads.push(id);
    return after(id, limit, maxBytes);
  };
  return reads;
}

describe('delivery log', () => {
  it('lists the last hour from one page read, past 5,000 older webhooks', async () => {
    let now = Date.parse('2026-11-20T09:00:00Z');
    const db = openRelayDatabase(mkdtempSync(join(tmpdir(), 'mb-delivery-log-')));
    const log = new SqliteEventLog(db, () => now);
    opened.push(log);
    for (let i = 0; i < 5_000; i++) {
      now += 100_000; // about six days of webhooks, one every 100 s
      await log.append(Buffer.from(`{"n":${i}}`), 'eventDate_updated', {});
    }
    now += 2 * HOUR;
    const recent: string[] = [];
    for (let i = 0; i < 3; i++) {
      now += 60_000;
      recent.push(await log.append(Buffer.from(`{"r":${i}}`), 'eventDate_released', {}));
    }
    const reads = counting(log);
    const presence = new MemoryPresenceStore();
    const out = await deliveryLog(log, presence, now - HOUR, now);
    expect(out.events.map((e) => e.id)).toEqual(recent);
    expect(out.events.every((e) => e.type === 'eventDate_released')).toBe(true);
    expect(out.truncated).toBe(false);
    // from just before the range (less the clock skew allowance), not from "0"
    expect(reads[0]).not.toBe('0');
    expect(reads.length).toBeLessThanOrEqual(2);
  });

  it('still lists a range that starts before the first event', async () => {
    let now = Date.parse('2026-11-20T09:00:00Z');
    const db = openRelayDatabase(mkdtempSync(join(tmpdir(), 'mb-delivery-log-')));
    const log = new SqliteEventLog(db, () => now);
    opened.push(log);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      now += 60_000;
      ids.push(await log.append(Buffer.from(`{"n":${i}}`), 'eventDate_updated', {}));
    }
    const out = await deliveryLog(log, new MemoryPresenceStore(), now - 24 * HOUR, now);
    expect(out.events.map((e) => e.id)).toEqual(ids);
  });

  it('on Redis Streams, seeks by the time in the stream ids and lists the range whole', async () => {
    const redis = await startRedis();
    opened.push({ close: () => redis.stop() });
    const log = await RedisEventLog.open({ url: redis.url });
    opened.push(log);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(await log.append(Buffer.from(`{"n":${i}}`), 'eventDate_updated', {}));
    const reads = counting(log);
    const now = Date.now();
    const out = await deliveryLog(log, new MemoryPresenceStore(), now - HOUR, now + 1_000);
    expect(out.events.map((e) => e.id)).toEqual(ids);
    expect(reads[0]).toMatch(/^\d+-0$/);
    // a range after them lists none
    expect(
      (await deliveryLog(log, new MemoryPresenceStore(), now + 1_000, now + HOUR)).events,
    ).toEqual([]);
  });
});
