/**
 * The desk's admins: who may open the admin page and `relay status`. Their tokens are
 * stored only as SHA-256 hashes, like traders', but in their own table (or Redis keys)
 * and with their own prefix (mba_), so a trader token can never open an admin route.
 * Two backends beside the users': the relay database (one node) or Redis (every node).
 */
import type { RedisTarget } from '../../redis/redis-client.js';
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type Redis from 'ioredis';
import { tokenHash } from '../../../node/security/compare.js';
import { connectSharedRedis } from '../../redis/redis-connect.js';
import { PREFIX } from '../../redis/redis-scripts.js';
import { checkedUserName, type UserInfo } from '../../users/user-store.js';
import { openRelayDatabase } from '../../db/relay-db.js';
import { z } from 'zod';
import { parseCheckedJson } from '../../../node/json/checked-json.js';

export interface AdminStore {
  add(name: string): Promise<{ name: string; token: string }>;
  list(): Promise<Omit<UserInfo, 'lastSeenAt'>[]>;
  revoke(name: string): Promise<boolean>;
  /** The active admin a token belongs to, or null. */
  authenticate(token: string): Promise<string | null>;
  /** The stored hash of an active admin's token (signs their sessions), or null. */
  activeTokenHash(name: string): Promise<string | null>;
  close(): Promise<void>;
}

const newAdminToken = () => `mba_${randomBytes(32).toString('base64url')}`;
const exists = (name: string) => `admin "${name}" exists: revoke it first to issue a new token`;

export class SqliteAdminStore implements AdminStore {
  /**
   * @param db the relay database (its relay_admins table is in relay-migrations.ts)
   * @param releaseDb what close() does to the handle: nothing when the relay shares it.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
    private readonly releaseDb: () => void = () => undefined,
  ) {}

  /** A store with its own handle on DATA/relay.db (the CLI), closed with it. */
  static open(dataDir: string, now: () => number = Date.now): SqliteAdminStore {
    const db = openRelayDatabase(dataDir);
    return new SqliteAdminStore(db, now, () => db.close());
  }

  add(name: string) {
    const checked = checkedUserName(name);
    const row = this.db
      .prepare<[string], { revoked_at: number | null }>(
        'SELECT revoked_at FROM relay_admins WHERE name = ?',
      )
      .get(checked);
    if (row && row.revoked_at === null) return Promise.reject(new Error(exists(checked)));
    const token = newAdminToken();
    this.db
      .prepare(
        `INSERT INTO relay_admins (name, token_hash, created_at) VALUES (?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET token_hash = excluded.token_hash,
           created_at = excluded.created_at, revoked_at = NULL`,
      )
      .run(checked, tokenHash(token), this.now());
    return Promise.resolve({ name: checked, token });
  }

  list() {
    const rows = this.db
      .prepare<[], { name: string; created_at: number; revoked_at: number | null }>(
        'SELECT name, created_at, revoked_at FROM relay_admins ORDER BY name',
      )
      .all();
    return Promise.resolve(
      rows.map((r) => ({ name: r.name, createdAt: r.created_at, revokedAt: r.revoked_at })),
    );
  }

  revoke(name: string) {
    const r = this.db
      .prepare('UPDATE relay_admins SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL')
      .run(this.now(), name);
    return Promise.resolve(r.changes > 0);
  }

  authenticate(token: string) {
    const row = this.db
      .prepare<[string], { name: string }>(
        'SELECT name FROM relay_admins WHERE token_hash = ? AND revoked_at IS NULL',
      )
      .get(tokenHash(token));
    return Promise.resolve(row?.name ?? null);
  }

  activeTokenHash(name: string) {
    const row = this.db
      .prepare<[string], { token_hash: string }>(
        'SELECT token_hash FROM relay_admins WHERE name = ? AND revoked_at IS NULL',
      )
      .get(name);
    return Promise.resolve(row?.token_hash ?? null);
  }

  close() {
    this.releaseDb();
    return Promise.resolve();
  }
}

const ADMINS = `${PREFIX}admins`;
const ADMIN_TOKENS = `${PREFIX}admin-tokens`;
const adminRow = z.object({
  tokenHash: z.string(),
  createdAt: z.number(),
  revokedAt: z.number().nullable(),
});
type AdminRow = z.infer<typeof adminRow>;
const readAdminRow = (name: string, raw: string): AdminRow =>
  parseCheckedJson(`admin "${name}" in Redis`, adminRow, raw);

/** Admins in Redis: name → row (JSON), and active token hash → name. */
export class RedisAdminStore implements AdminStore {
  private constructor(
    private readonly redis: Redis,
    private readonly now: () => number,
  ) {}

  static async open(
    target: string | RedisTarget,
    now: () => number = Date.now,
  ): Promise<RedisAdminStore> {
    return new RedisAdminStore(await connectSharedRedis(target, "the desk's admins", {}), now);
  }

  private async row(name: string): Promise<AdminRow | null> {
    const raw = await this.redis.hget(ADMINS, name);
    return raw === null ? null : readAdminRow(name, raw);
  }

  async add(name: string) {
    const checked = checkedUserName(name);
    const old = await this.row(checked);
    if (old && old.revokedAt === null) throw new Error(exists(checked));
    const token = newAdminToken();
    const row: AdminRow = { tokenHash: tokenHash(token), createdAt: this.now(), revokedAt: null };
    const tx = this.redis.multi();
    if (old) tx.hdel(ADMIN_TOKENS, old.tokenHash);
    await tx
      .hset(ADMINS, checked, JSON.stringify(row))
      .hset(ADMIN_TOKENS, row.tokenHash, checked)
      .exec();
    return { name: checked, token };
  }

  async list() {
    const all = await this.redis.hgetall(ADMINS);
    return Object.entries(all)
      .map(([name, raw]) => {
        const r = readAdminRow(name, raw);
        return { name, createdAt: r.createdAt, revokedAt: r.revokedAt };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async revoke(name: string) {
    const old = await this.row(name);
    if (!old || old.revokedAt !== null) return false;
    await this.redis
      .multi()
      .hset(ADMINS, name, JSON.stringify({ ...old, revokedAt: this.now() }))
      .hdel(ADMIN_TOKENS, old.tokenHash)
      .exec();
    return true;
  }

  authenticate(token: string) {
    return this.redis.hget(ADMIN_TOKENS, tokenHash(token));
  }

  async activeTokenHash(name: string) {
    const r = await this.row(name);
    return r && r.revokedAt === null ? r.tokenHash : null;
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
