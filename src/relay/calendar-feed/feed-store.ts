/**
 * Each desk user's watch list and webcal feed token, in the relay database beside the
 * users table (own tables, created here, so the users store can change underneath).
 *
 * Why an HMAC and not a random token: a calendar app cannot send a bearer header, so the
 * feed URL itself is the credential and must be unguessable. A random token stored only as
 * its hash could be shown once; deriving it as HMAC(key, user + nonce) lets Settings show
 * the same URL on every machine of the user at any time, while the database still holds
 * only the token's hash and the nonce — useless without the key, which lives in its own
 * 0600 file (DATA/calendar-feed.key), not in the database. Rotating draws a new nonce, so
 * the old URL stops matching at once.
 */
import type Database from 'better-sqlite3';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenHash } from '../../node/security/compare.js';

const KEY_FILE = 'calendar-feed.key';

function createTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS calendar_watchlists (
      user TEXT PRIMARY KEY,
      event_ids TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS calendar_feed_tokens (
      user TEXT PRIMARY KEY,
      nonce TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      -- The user's own created_at when the feed was made: a user revoked and added again
      -- gets a new feed, never the old (possibly shared) URL back.
      user_created_at INTEGER
    );
  `);
}

/** The HMAC key: made once (32 random bytes, mode 0600), kept across restarts. */
function feedKey(dataDir: string): Buffer {
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    if (key.length >= 32) return key;
    throw new Error(`${file} is damaged: delete it to issue new feed URLs to every user`);
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64url'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

export interface FeedOwner {
  user: string;
  userCreatedAt: number | null;
}

export class FeedStore {
  private key: Buffer | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    createTables(db);
  }

  setWatchlist(user: string, eventIds: readonly string[]): void {
    this.db
      .prepare(
        `INSERT INTO calendar_watchlists (user, event_ids, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(user) DO UPDATE SET event_ids = excluded.event_ids, updated_at = excluded.updated_at`,
      )
      .run(user, JSON.stringify(eventIds), this.now());
  }

  watchlist(user: string): { eventIds: string[]; updatedAt: number } {
    const row = this.db
      .prepare<[string], { event_ids: string; updated_at: number }>(
        'SELECT event_ids, updated_at FROM calendar_watchlists WHERE user = ?',
      )
      .get(user);
    if (!row) return { eventIds: [], updatedAt: 0 };
    return { eventIds: JSON.parse(row.event_ids) as string[], updatedAt: row.updated_at };
  }

  private derive(user: string, nonce: string): string {
    // Read (or made) on first use: a relay nobody asks for a feed writes no key file.
    this.key ??= feedKey(this.dataDir);
    const mac = createHmac('sha256', this.key).update(`${user}\n${nonce}`).digest('base64url');
    return `mbf_${mac}`;
  }

  /** The user's feed token, made on first use; `rotate` replaces it (the old one dies). */
  feedToken(
    user: string,
    userCreatedAt: number | null,
    rotate = false,
  ): { token: string; createdAt: number } {
    const row = this.db
      .prepare<[string], { nonce: string; created_at: number; user_created_at: number | null }>(
        'SELECT nonce, created_at, user_created_at FROM calendar_feed_tokens WHERE user = ?',
      )
      .get(user);
    if (row && !rotate && row.user_created_at === userCreatedAt)
      return { token: this.derive(user, row.nonce), createdAt: row.created_at };
    const nonce = randomBytes(16).toString('base64url');
    const token = this.derive(user, nonce);
    const createdAt = this.now();
    this.db
      .prepare(
        `INSERT INTO calendar_feed_tokens (user, nonce, token_hash, created_at, user_created_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(user) DO UPDATE SET nonce = excluded.nonce, token_hash = excluded.token_hash,
           created_at = excluded.created_at, user_created_at = excluded.user_created_at`,
      )
      .run(user, nonce, tokenHash(token), createdAt, userCreatedAt);
    return { token, createdAt };
  }

  /** Whose feed a token opens, or null (unknown, or rotated away). */
  ownerOf(token: string): FeedOwner | null {
    const row = this.db
      .prepare<[string], { user: string; user_created_at: number | null }>(
        'SELECT user, user_created_at FROM calendar_feed_tokens WHERE token_hash = ?',
      )
      .get(tokenHash(token));
    return row ? { user: row.user, userCreatedAt: row.user_created_at } : null;
  }
}
