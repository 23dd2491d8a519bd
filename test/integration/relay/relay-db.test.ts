/**
 * The relay database (src/relay/db/relay-db.ts): one handle per relay, every table in the
 * numbered migrations — and a relay.db left by an older relay (its users, calendar and
 * admin tables made outside the migrations) opens with its traders, admins, watch lists
 * and events as they were. A file it cannot use is refused with a clear error, untouched.
 */
import Database from 'better-sqlite3';
import { readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteFeedStore } from '../../../src/relay/calendar-feed/sqlite-feed-store.js';
import { relayDatabasePath } from '../../../src/relay/db/relay-db.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import type { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { SqliteUserStore } from '../../../src/relay/users/users.js';
import {
  OLD_ADMIN_TOKEN,
  OLD_USERS_DDL,
  OLD_USER_TOKEN,
  writeOldRelayDb,
} from '../../fixtures/old-relay-db.js';
import { SECRET, TOKEN, pageAll, tempDir } from './helpers.js';

let relay: RunningRelay | null = null;
afterEach(async () => {
  await relay?.close();
  relay = null;
});

const start = (dataDir: string) => startRelay({ dataDir, secret: SECRET, token: TOKEN });
const schemaOf = (r: RunningRelay) =>
  (r.log as SqliteEventLog).db.pragma('user_version', { simple: true });

async function getJson(url: string, token: string) {
  const res = await request(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

/** File descriptors this process holds on the file (SQLite keeps one per connection). */
function openHandles(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed meanwhile
    }
  }).length;
}

describe('a relay.db from an older relay', () => {
  it('keeps its events, traders, admins and watch lists, and is at the latest schema', async () => {
    const dir = tempDir();
    writeOldRelayDb(dir, 3);
    relay = await start(dir);
    expect(schemaOf(relay)).toBe(4);
    // The trader's token still opens the log, which still holds the three events.
    const events = await pageAll(relay.url, OLD_USER_TOKEN);
    expect(events.map((e) => [e.id, e.body.n])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ]);
    const admin = await getJson(`${relay.url}/admin`, OLD_ADMIN_TOKEN);
    expect(admin.status).toBe(200);
    expect(JSON.stringify(admin.json)).toContain('"olga"');
    await relay.close();
    relay = null;
    // The watch list (served only in desk mode) is read back from the upgraded file.
    const feed = SqliteFeedStore.open(dir);
    expect((await feed.watchlist('olga')).eventIds).toEqual(['ev-1', 'ev-2']);
    await feed.close();
  });

  it('opens one made by `relay users add` before the relay ever ran (no schema yet)', async () => {
    const dir = tempDir();
    const old = new Database(relayDatabasePath(dir));
    old.exec(OLD_USERS_DDL);
    old.close();
    const users = SqliteUserStore.open(dir);
    const { token } = await users.add('early');
    await users.close();
    relay = await start(dir);
    expect(schemaOf(relay)).toBe(4);
    expect((await getJson(`${relay.url}/events/page`, token)).status).toBe(200);
  });

  it('refuses a table of another shape, naming it, and leaves the file at its schema', async () => {
    const dir = tempDir();
    const old = new Database(relayDatabasePath(dir));
    old.exec('CREATE TABLE relay_users (name TEXT PRIMARY KEY, token TEXT)');
    old.close();
    await expect(start(dir)).rejects.toThrow(
      `cannot upgrade the relay database ${relayDatabasePath(dir)} to schema 2 (users): the existing table relay_users has no column token_hash, created_at, last_seen_at, revoked_at`,
    );
    const after = new Database(relayDatabasePath(dir), { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(1);
    after.close();
  });

  it('refuses a file from a newer relay with a clear error and leaves it untouched', async () => {
    const dir = tempDir();
    const path = relayDatabasePath(dir);
    const newer = new Database(path);
    newer.pragma('user_version = 9');
    newer.close();
    const before = readFileSync(path);
    await expect(start(dir)).rejects.toThrow(
      `the relay database ${path} is from a newer version of the relay (schema 9, this relay knows 4): upgrade the relay or use another data folder`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('a new relay.db', () => {
  it('is opened once for every store, readable only by its owner, and closed with the relay', async () => {
    const dir = tempDir();
    const path = relayDatabasePath(dir);
    relay = await start(dir);
    // The log, the users, the calendar feed and the admins all use that one handle.
    expect(openHandles(path)).toBe(1);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await relay.close();
    relay = null;
    expect(openHandles(path)).toBe(0);
  });
});
