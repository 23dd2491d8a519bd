/**
 * The feed tokens' HMAC key, DATA/calendar-feed.key (32 random bytes, base64url, mode 0600).
 * It never goes into a database or Redis: a copy of the store alone must open no feed.
 * One node makes it on first use; several nodes on one Redis must all hold the same file,
 * which shared-feed-key.ts checks against a fingerprint (never the key) kept in Redis.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'calendar-feed.key';
const KEY_BYTES = 32;

export const keyFilePath = (dataDir: string) => join(dataDir, KEY_FILE);

/** The key in the data folder, or null when there is no file yet. */
export function readFeedKey(dataDir: string): Buffer | null {
  const file = keyFilePath(dataDir);
  if (!existsSync(file)) return null;
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  if (key.length >= KEY_BYTES) return key;
  throw new Error(`${file} is damaged: delete it to issue new feed URLs to every user`);
}

/** A new key, written 0600 only if no file exists (`wx`: two writers cannot both win). */
export function createFeedKey(dataDir: string): Buffer {
  const file = keyFilePath(dataDir);
  const key = randomBytes(KEY_BYTES);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, key.toString('base64url'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600); // the mode above is masked by umask
  return key;
}

/** Removes a key this process just made and that lost the race to be the desk's. */
export function discardFeedKey(dataDir: string): void {
  unlinkSync(keyFilePath(dataDir));
}

/** One node: the file's key, made on first use. */
export function localFeedKey(dataDir: string): Buffer {
  return readFeedKey(dataDir) ?? createFeedKey(dataDir);
}

/**
 * What may be shown to others to tell two keys apart: an HMAC of a fixed text, so it
 * reveals nothing about the key and cannot be used to derive a feed token.
 */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('macrobell feed key check').digest('base64url');
}

/** The feed token for a user and nonce: `mbf_` + HMAC-SHA256(key, user \n nonce). */
export function deriveFeedToken(key: Buffer, user: string, nonce: string): string {
  return `mbf_${createHmac('sha256', key).update(`${user}\n${nonce}`).digest('base64url')}`;
}

/** This node's key is not the one the other nodes of the desk issue feed URLs with. */
export class FeedKeyMismatch extends Error {
  constructor() {
    super(
      "this node's DATA/calendar-feed.key differs from the one the desk's other nodes use: " +
        'copy it from a node that serves feeds',
    );
  }
}
