/**
 * Where the desk's traders are kept: one bearer token each, stored only as its SHA-256
 * hash. Two backends, chosen with the event log's: the relay's SQLite file (one node;
 * users.ts) or Redis (every node of a desk shares users and revocations; redis-users.ts).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The single user of older installs (MACROBELL_RELAY_TOKEN / relay-secrets.json). */
export const LEGACY_USER = 'relay-token';

export interface UserInfo {
  name: string;
  createdAt: number;
  lastSeenAt: number | null;
  revokedAt: number | null;
}

export interface UserStore {
  readonly backend: 'sqlite' | 'redis';
  /** A new user and their token (shown once; only its hash is kept). */
  add(name: string): Promise<{ name: string; token: string }>;
  list(): Promise<UserInfo[]>;
  /** True when the user existed and was active. */
  revoke(name: string): Promise<boolean>;
  /** The active user a token belongs to, or null (unknown or revoked). */
  authenticate(token: string): Promise<string | null>;
  /** Every revoked name (a running relay closes their open streams). */
  revokedNames(): Promise<Set<string>>;
  close(): Promise<void>;
}

/** Last-seen is written at most this often per user (a write per request would be waste). */
export const SEEN_EVERY_MS = 60_000;

const userNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'a name of 1–64 letters, digits, . _ @ -');

/** The name, checked (throws a plain message for the CLI). */
export function checkedUserName(name: string): string {
  const checked = userNameSchema.safeParse(name);
  if (!checked.success) throw new Error(`user name: ${checked.error.issues[0]?.message}`);
  if (checked.data === LEGACY_USER) throw new Error(`"${LEGACY_USER}" is reserved`);
  return checked.data;
}

export function newUserToken(): string {
  return `mbu_${randomBytes(32).toString('base64url')}`;
}

export function userExistsMessage(name: string): string {
  return `user "${name}" exists: revoke it first to issue a new token`;
}
