/**
 * The feed store of a one-node relay: tables in the relay database beside the users table
 * (relay-migrations.ts), the key in DATA/calendar-feed.key.
 */
import type Database from 'better-sqlite3';
import { tokenHash } from '../../node/security/compare.js';
import { openRelayDatabase } from '../db/relay-db.js';
import { localFeedKey } from './feed-key.js';
import {
  checkedFeedUser,
  liveToken,
  newToken,
  storedEventIds,
  type FeedOwner,
  type FeedStore,
  type FeedToken,
  type TokenRow,
  type Watchlist,
} from './feed-store.js';

export class SqliteFeedStore implements FeedStore {
  readonly backend = 'sqlite';
  private key: Buffer | null = null;

  /** @param releaseDb what close() does to the handle: nothing when the relay shares it. */
  constructor(
    private readonly db: Database.Database,
    private readonly dataDir: string,
    private readonly now: () => number = Date.now,
    private readonly releaseDb: () => void = () => undefined,
  ) {}

  /** A store with its own handle on DATA/relay.db, closed with it. */
  static open(dataDir: string, now?: () => number): SqliteFeedStore {
    const db = openRelayDatabase(dataDir);
    return new SqliteFeedStore(db, dataDir, now, () => db.close());
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
      eventIds: storedEventIds(row.event_ids, user),
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
    this.releaseDb();
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
