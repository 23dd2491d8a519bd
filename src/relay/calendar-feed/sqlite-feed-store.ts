/**
 * The feed store of a one-node relay: tables in the relay database beside the users table
 * (created here, so the users store can change underneath), the key in DATA/calendar-feed.key.
 */
import type Database from 'better-sqlite3';
import { tokenHash } from '../../node/security/compare.js';
import { openUsersDatabase } from '../users.js';
import { localFeedKey } from './feed-key.js';
import {
  checkedFeedUser,
  liveToken,
  newToken,
  type FeedOwner,
  type FeedStore,
  type FeedToken,
  type TokenRow,
  type Watchlist,
} from './feed-store.js';

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
      user_created_at INTEGER
    );
  `);
}

export class SqliteFeedStore implements FeedStore {
  readonly backend = 'sqlite';
  private key: Buffer | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    createTables(db);
  }

  /** Opens (creating 0600) the relay database of the data folder. */
  static open(dataDir: string, now?: () => number): SqliteFeedStore {
    return new SqliteFeedStore(openUsersDatabase(dataDir), dataDir, now);
  }

  setWatchlist(user: string, eventIds: readonly string[]): Promise<Watchlist> {
    const updatedAt = this.now();
    this.db
      .prepare(
        `INSERT INTO calendar_watchlists (user, event_ids, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(user) DO UPDATE SET event_ids = excluded.event_ids, updated_at = excluded.updated_at`,
      )
      .run(checkedFeedUser(user), JSON.stringify(eventIds), updatedAt);
    return Promise.resolve({ eventIds: [...eventIds], updatedAt });
  }

  watchlist(user: string): Promise<Watchlist> {
    const row = this.db
      .prepare<[string], { event_ids: string; updated_at: number }>(
        'SELECT event_ids, updated_at FROM calendar_watchlists WHERE user = ?',
      )
      .get(user);
    if (!row) return Promise.resolve({ eventIds: [], updatedAt: 0 });
    return Promise.resolve({
      eventIds: JSON.parse(row.event_ids) as string[],
      updatedAt: row.updated_at,
    });
  }

  /** One node: whatever key file it has is the desk's. */
  checkKey(): Promise<void> {
    return Promise.resolve();
  }

  feedToken(user: string, userCreatedAt: number | null, rotate = false): Promise<FeedToken> {
    // Read (or made) on first use: a relay nobody asks for a feed writes no key file.
    this.key ??= localFeedKey(this.dataDir);
    const row = this.tokenRow(checkedFeedUser(user));
    const live = liveToken(this.key, user, row, userCreatedAt, rotate);
    if (live && row) return Promise.resolve({ token: live, createdAt: row.createdAt });
    const made = newToken(this.key, user, userCreatedAt, this.now());
    this.db
      .prepare(
        `INSERT INTO calendar_feed_tokens (user, nonce, token_hash, created_at, user_created_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(user) DO UPDATE SET nonce = excluded.nonce, token_hash = excluded.token_hash,
           created_at = excluded.created_at, user_created_at = excluded.user_created_at`,
      )
      .run(user, made.row.nonce, made.row.tokenHash, made.row.createdAt, made.row.userCreatedAt);
    return Promise.resolve({ token: made.token, createdAt: made.row.createdAt });
  }

  ownerOf(token: string): Promise<FeedOwner | null> {
    const row = this.db
      .prepare<[string], { user: string; user_created_at: number | null }>(
        'SELECT user, user_created_at FROM calendar_feed_tokens WHERE token_hash = ?',
      )
      .get(tokenHash(token));
    return Promise.resolve(row ? { user: row.user, userCreatedAt: row.user_created_at } : null);
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }

  private tokenRow(user: string): TokenRow | null {
    const row = this.db
      .prepare<
        [string],
        { nonce: string; token_hash: string; created_at: number; user_created_at: number | null }
      >(
        'SELECT nonce, token_hash, created_at, user_created_at FROM calendar_feed_tokens WHERE user = ?',
      )
      .get(user);
    return row
      ? {
          nonce: row.nonce,
          tokenHash: row.token_hash,
          createdAt: row.created_at,
          userCreatedAt: row.user_created_at,
        }
      : null;
  }
}
