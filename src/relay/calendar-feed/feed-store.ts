/**
 * Each desk user's watch list and webcal feed token. Two backends, chosen with the users
 * store: the relay's SQLite file (one node; sqlite-feed-store.ts) or Redis (every node of
 * a desk serves every list and feed URL; redis-feed-store.ts).
 *
 * Why an HMAC and not a random token: a calendar app cannot send a bearer header, so the
 * feed URL itself is the credential and must be unguessable. A random token stored only as
 * its hash could be shown once; deriving it as HMAC(key, user + nonce) lets Settings show
 * the same URL on every machine of the user at any time, while the store still holds only
 * the token's hash and the nonce — useless without the key, which lives in its own 0600
 * file (feed-key.ts), never in the store. Rotating draws a new nonce, so the old URL stops
 * matching at once.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { tokenHash } from '../../node/security/compare.js';
import { deriveFeedToken } from './feed-key.js';

export interface FeedOwner {
  user: string;
  userCreatedAt: number | null;
}

export interface Watchlist {
  eventIds: string[];
  updatedAt: number;
}

export interface FeedToken {
  token: string;
  createdAt: number;
}

export interface FeedStore {
  readonly backend: 'sqlite' | 'redis';
  /** Replaces the user's list; resolves with what is stored. */
  setWatchlist(user: string, eventIds: readonly string[]): Promise<Watchlist>;
  /** The user's list (empty, updatedAt 0, when none was uploaded). */
  watchlist(user: string): Promise<Watchlist>;
  /** Rejects with FeedKeyMismatch when this node's key cannot serve the desk's feeds. */
  checkKey(): Promise<void>;
  /** The user's feed token, made on first use; `rotate` replaces it (the old one dies). */
  feedToken(user: string, userCreatedAt: number | null, rotate?: boolean): Promise<FeedToken>;
  /** Whose feed a token opens, or null (unknown, or rotated away). */
  ownerOf(token: string): Promise<FeedOwner | null>;
  close(): Promise<void>;
}

/** A user's stored token: the nonce it is derived from and its hash, never the token. */
export interface TokenRow {
  nonce: string;
  tokenHash: string;
  createdAt: number;
  /**
   * The user's own created_at when the feed was made: a user revoked and added again gets
   * a new feed, never the old (possibly shared) URL back.
   */
  userCreatedAt: number | null;
}

// The users store's names, plus its legacy single user; both are safe in a Redis key.
const FEED_USER = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

const EVENT_IDS = z.array(z.string());

/** A stored watch list's event ids (JSON), checked: a damaged row is said, not served. */
export function storedEventIds(json: string, user: string): string[] {
  const ids = EVENT_IDS.safeParse(JSON.parse(json));
  if (!ids.success) throw new Error(`calendar feed: the watch list of ${user} is damaged`);
  return ids.data;
}

export function checkedFeedUser(user: string): string {
  if (!FEED_USER.test(user)) throw new Error('calendar feed: not a desk user name');
  return user;
}

/**
 * The row's token when it still opens this user's feed, else null (a new one is due):
 * none yet, a rotation, a user added again, or a key that no longer derives the stored
 * hash (the key file was replaced — the old URLs are dead, so issue new ones).
 */
export function liveToken(
  key: Buffer,
  user: string,
  row: TokenRow | null,
  userCreatedAt: number | null,
  rotate: boolean,
): string | null {
  if (!row || rotate || row.userCreatedAt !== userCreatedAt) return null;
  const token = deriveFeedToken(key, user, row.nonce);
  return tokenHash(token) === row.tokenHash ? token : null;
}

/** A new token for the user and the row to store for it. */
export function newToken(
  key: Buffer,
  user: string,
  userCreatedAt: number | null,
  now: number,
): { token: string; row: TokenRow } {
  const nonce = randomBytes(16).toString('base64url');
  const token = deriveFeedToken(key, user, nonce);
  return { token, row: { nonce, tokenHash: tokenHash(token), createdAt: now, userCreatedAt } };
}
