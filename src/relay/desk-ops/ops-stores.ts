/**
 * The desk-operations stores of one node, on the relay's backend: in memory / the relay
 * database (one node), or Redis (shared by every node). Opened together; if one cannot be
 * opened, those already open are closed before the error goes up.
 */
import type { RedisTarget } from '../redis/redis-client.js';
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { MemoryPresenceStore, type PresenceStore } from './presence/presence-store.js';
import { RedisPresenceStore } from './presence/redis-presence-store.js';
import { RedisAdminStore, SqliteAdminStore, type AdminStore } from './admin/admin-store.js';
import { MemoryAlertLedger, RedisAlertLedger, type AlertLedger } from './alerts/alert-ledger.js';
import { LocalReplaySignal, RedisReplaySignal, type ReplaySignal } from './replay/replay-signal.js';

export interface OpsStores {
  presence: PresenceStore;
  admins: AdminStore;
  ledger: AlertLedger;
  replays: ReplaySignal;
  close(): Promise<void>;
}

function sqliteHandle(db: Database.Database | null): Database.Database {
  if (!db) throw new Error('desk operations need the relay database or Redis');
  return db;
}

export async function openOpsStores(opts: {
  redis?: RedisTarget;
  /** The relay database when there is no Redis (the admins' table is in it). */
  relayDb: Database.Database | null;
  now: () => number;
  logger?: Logger;
}): Promise<OpsStores> {
  const { redis, now } = opts;
  const opened: { close(): Promise<void> }[] = [];
  const keep = <T extends { close(): Promise<void> }>(s: T) => (opened.push(s), s);
  try {
    const presence = keep(
      redis ? await RedisPresenceStore.open(redis) : new MemoryPresenceStore(now),
    );
    const admins = keep(
      redis
        ? await RedisAdminStore.open(redis, now)
        : new SqliteAdminStore(sqliteHandle(opts.relayDb), now),
    );
    const ledger: AlertLedger = redis
      ? await RedisAlertLedger.open(redis)
      : new MemoryAlertLedger();
    opened.push({ close: () => ledger.shutdown() });
    const replays = keep(
      redis
        ? await RedisReplaySignal.open(redis, { logger: opts.logger })
        : new LocalReplaySignal(),
    );
    return {
      presence,
      admins,
      ledger,
      replays,
      async close() {
        for (const s of opened.reverse()) await s.close();
      },
    };
  } catch (err) {
    for (const s of opened.reverse()) await s.close().catch(() => undefined);
    throw err;
  }
}
