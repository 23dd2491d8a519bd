/**
 * The desk's traders on one node: one bearer token each, stored only as its SHA-256 hash
 * in the relay database (relay-db.ts; the table is in relay-migrations.ts). The
 * legacy single token (MACROBELL_RELAY_TOKEN / relay-secrets.json) keeps working as one user.
 */
import type Database from 'better-sqlite3';
import { constantTimeEqual, tokenHash } from '../../node/security/compare.js';
import { openRelayDatabase } from '../db/relay-db.js';
import {
  LEGACY_USER,
  SEEN_EVERY_MS,
  checkedUserName,
  newUserToken,
  userExistsMessage,
  type UserInfo,
  type UserStore,
} from './user-store.js';

type Row = {
  name: string;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
};
const toInfo = (r: Row): UserInfo => ({
  name: r.name,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  revokedAt: r.revoked_at,
});

export class UserDirectory {
  private readonly byHash: Database.Statement<[string], { name: string }>;
  private readonly seen = new Map<string, number>();

  constructor(
    readonly db: Database.Database,
    private readonly legacyToken: string | null = null,
    private readonly now: () => number = Date.now,
  ) {
    this.byHash = db.prepare(
      'SELECT name FROM relay_users WHERE token_hash = ? AND revoked_at IS NULL',
    );
  }

  /** A new user and their token (shown once; only its hash is kept). */
  add(name: string): { name: string; token: string } {
    const checked = { data: checkedUserName(name) };
    const existing = this.db
      .prepare<[string], Row>('SELECT * FROM relay_users WHERE name = ?')
      .get(checked.data);
    if (existing && existing.revoked_at === null) throw new Error(userExistsMessage(checked.data));
    const token = newUserToken();
    this.db
      .prepare(
        `INSERT INTO relay_users (name, token_hash, created_at) VALUES (?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET token_hash = excluded.token_hash,
           created_at = excluded.created_at, last_seen_at = NULL, revoked_at = NULL`,
      )
      .run(checked.data, tokenHash(token), this.now());
    return { name: checked.data, token };
  }

  list(): UserInfo[] {
    return this.db
      .prepare<[], Row>(
        'SELECT name, created_at, last_seen_at, revoked_at FROM relay_users ORDER BY name',
      )
      .all()
      .map(toInfo);
  }

  /** True when the user existed and was active. */
  revoke(name: string): boolean {
    const r = this.db
      .prepare('UPDATE relay_users SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL')
      .run(this.now(), name);
    return r.changes > 0;
  }

  /** Names revoked at or after `since` (a running relay closes their streams). */
  revokedSince(since: number): string[] {
    return this.db
      .prepare<[number], { name: string }>('SELECT name FROM relay_users WHERE revoked_at >= ?')
      .all(since)
      .map((r) => r.name);
  }

  /** The user a bearer token belongs to, or null (unknown or revoked). */
  authenticate(token: string | null): string | null {
    if (!token) return null;
    if (this.legacyToken !== null && constantTimeEqual(token, this.legacyToken)) return LEGACY_USER;
    // A hash lookup: the index compares hashes, which reveal nothing about the token.
    const row = this.byHash.get(tokenHash(token));
    if (!row) return null;
    this.touch(row.name);
    return row.name;
  }

  private touch(name: string): void {
    const t = this.now();
    if (t - (this.seen.get(name) ?? 0) < SEEN_EVERY_MS) return;
    this.seen.set(name, t);
    this.db.prepare('UPDATE relay_users SET last_seen_at = ? WHERE name = ?').run(t, name);
  }
}

/** The SQLite directory behind the UserStore interface (the legacy token is the desk's). */
export class SqliteUserStore implements UserStore {
  readonly backend = 'sqlite';
  private readonly users: UserDirectory;
  private readonly selectRevoked: Database.Statement<[], { name: string }>;

  /** @param releaseDb what close() does to the handle: nothing when the relay shares it. */
  constructor(
    db: Database.Database,
    now: () => number = Date.now,
    private readonly releaseDb: () => void = () => undefined,
  ) {
    this.users = new UserDirectory(db, null, now);
    this.selectRevoked = db.prepare('SELECT name FROM relay_users WHERE revoked_at IS NOT NULL');
  }

  /** A store with its own handle on DATA/relay.db (the CLI), closed with it. */
  static open(dataDir: string, now?: () => number): SqliteUserStore {
    const db = openRelayDatabase(dataDir);
    return new SqliteUserStore(db, now, () => db.close());
  }

  add(name: string) {
    return Promise.resolve(this.users.add(name));
  }

  list() {
    return Promise.resolve(this.users.list());
  }

  revoke(name: string) {
    return Promise.resolve(this.users.revoke(name));
  }

  authenticate(token: string) {
    return Promise.resolve(this.users.authenticate(token));
  }

  revokedNames() {
    return Promise.resolve(new Set(this.selectRevoked.all().map((r) => r.name)));
  }

  close() {
    this.releaseDb();
    return Promise.resolve();
  }
}
