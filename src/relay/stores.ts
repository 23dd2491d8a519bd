/**
 * The relay's stores, opened together: the webhook log, the desk's users and the calendar
 * feed's watch lists and tokens — all in this node's SQLite file (one handle, relay-db.ts), or all in the desk's
 * Redis (shared by every node). When one fails to open, those already open are closed.
 */
import { mkdirSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { FeedStore } from './calendar-feed/feed-store.js';
import { RedisFeedStore } from './calendar-feed/redis-feed-store.js';
import { SqliteFeedStore } from './calendar-feed/sqlite-feed-store.js';
import type { EventLog } from './log/event-log.js';
import type { RedisTarget } from './redis/redis-client.js';
import type { DurabilityMode } from './log/redis-durability.js';
import { RedisEventLog } from './log/redis-log.js';
import { RedisUserStore } from './users/redis-users.js';
import type { UserStore } from './users/user-store.js';
import { SqliteUserStore } from './users/users.js';
import { SqliteEventLog } from './log/sqlite-log.js';
import { openRelayDatabase } from './db/relay-db.js';

export type RelayRedis = RedisTarget & {
  durability?: DurabilityMode;
  dedupWindowMs?: number;
  generationCheckMs?: number;
  frozenAfterMs?: number;
};

export interface RelayStores {
  events: EventLog;
  users: UserStore;
  feedStore: FeedStore;
  /** What an acknowledgement promises, for the startup line. */
  durability: string;
  /** One node: the one handle on relay.db every SQLite store shares (closed last). */
  relayDb: Database.Database | null;
}

export async function openStores(opts: {
  dataDir: string;
  redis?: RelayRedis;
  commitIntervalMs?: number;
  now: () => number;
  logger?: Logger;
}): Promise<RelayStores> {
  const { dataDir, redis, now } = opts;
  if (!redis) {
    const relayDb = openRelayDatabase(dataDir);
    return {
      events: new SqliteEventLog(relayDb, now, opts.commitIntervalMs ?? 0, undefined, (err) =>
        opts.logger?.error({ err }, 'a relay log subscriber failed'),
      ),
      users: new SqliteUserStore(relayDb, now),
      feedStore: new SqliteFeedStore(relayDb, dataDir, now),
      durability: 'SQLite WAL fsynced before each ack',
      relayDb,
    };
  }
  // On Redis the data folder still keeps this node's files (the store-generation marker,
  // relay-url, the feed key): made here, as the SQLite database makes it, so a first start
  // with a new --data folder does not lose the marker.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const events = await RedisEventLog.open({ ...redis, now, logger: opts.logger, dataDir });
  const users = await RedisUserStore.open(redis, now).catch(async (err: unknown) => {
    await events.close();
    throw err;
  });
  const feedStore = await RedisFeedStore.open(redis, dataDir, now).catch(async (err: unknown) => {
    await users.close();
    await events.close();
    throw err;
  });
  return { events, users, feedStore, durability: events.describeDurability(), relayDb: null };
}
