/**
 * The feed key on a desk of several nodes (shared-feed-key.ts), against an in-memory
 * fingerprint registry: the first key's fingerprint is kept, never the key; a node with
 * another key file, or none while the desk has one, refuses instead of making its own.
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FeedKeyMismatch,
  createFeedKey,
  keyFilePath,
  keyFingerprint,
  readFeedKey,
} from '../../../src/relay/calendar-feed/feed-key.js';
import {
  sharedFeedKey,
  type FingerprintRegistry,
} from '../../../src/relay/calendar-feed/shared-feed-key.js';

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** SET NX semantics; `claimedBy` lets a test play another node winning the race. */
function registry(initial: string | null = null, claimedBy?: string) {
  let value = initial;
  const r: FingerprintRegistry & { value: () => string | null } = {
    value: () => value,
    get: () => Promise.resolve(value),
    claim: (fp) => {
      value ??= claimedBy ?? fp;
      return Promise.resolve(value);
    },
  };
  return r;
}

describe('the feed key shared by a desk of nodes', () => {
  it('makes no key on a check while neither the node nor the desk has one', async () => {
    const dir = tempDir('mb-key-');
    const reg = registry();
    expect(await sharedFeedKey(dir, reg, false)).toBeNull();
    expect(existsSync(keyFilePath(dir))).toBe(false);
    expect(reg.value()).toBeNull();
  });

  it('makes the first key (0600) and registers only its fingerprint', async () => {
    const dir = tempDir('mb-key-');
    const reg = registry();
    const key = (await sharedFeedKey(dir, reg, true)) as Buffer;
    expect(key.length).toBe(32);
    expect(readFeedKey(dir)?.equals(key)).toBe(true);
    expect(statSync(keyFilePath(dir)).mode & 0o777).toBe(0o600);
    expect(reg.value()).toBe(keyFingerprint(key));
    expect(reg.value()).not.toContain(key.toString('base64url'));
    // A second node with a copy of the file is accepted.
    const copy = tempDir('mb-key-');
    writeFileSync(keyFilePath(copy), key.toString('base64url'));
    expect((await sharedFeedKey(copy, reg, true))?.equals(key)).toBe(true);
  });

  it('refuses a node whose key file differs from the desk’s', async () => {
    const reg = registry();
    await sharedFeedKey(tempDir('mb-key-'), reg, true);
    const other = tempDir('mb-key-');
    createFeedKey(other);
    await expect(sharedFeedKey(other, reg, false)).rejects.toThrow(FeedKeyMismatch);
    await expect(sharedFeedKey(other, reg, true)).rejects.toThrow(
      /calendar-feed\.key differs from the one the desk's other nodes use: copy it from a node that serves feeds/,
    );
  });

  it('refuses a node with no key file once the desk has a key, and makes none', async () => {
    const reg = registry();
    await sharedFeedKey(tempDir('mb-key-'), reg, true);
    const empty = tempDir('mb-key-');
    await expect(sharedFeedKey(empty, reg, true)).rejects.toThrow(FeedKeyMismatch);
    expect(existsSync(keyFilePath(empty))).toBe(false);
  });

  it('drops its own new key when another node registered first', async () => {
    const dir = tempDir('mb-key-');
    const reg = registry(null, 'another-nodes-fingerprint');
    await expect(sharedFeedKey(dir, reg, true)).rejects.toThrow(FeedKeyMismatch);
    expect(existsSync(keyFilePath(dir))).toBe(false);
  });

  it('keeps the file when Redis fails mid-claim, and claims it next time', async () => {
    const dir = tempDir('mb-key-');
    let down = true;
    const reg = registry();
    const flaky: FingerprintRegistry = {
      get: () => reg.get(),
      claim: (fp) => (down ? Promise.reject(new Error('Redis away')) : reg.claim(fp)),
    };
    await expect(sharedFeedKey(dir, flaky, true)).rejects.toThrow(/Redis away/);
    const kept = readFeedKey(dir) as Buffer;
    down = false;
    expect((await sharedFeedKey(dir, flaky, true))?.equals(kept)).toBe(true);
    expect(reg.value()).toBe(keyFingerprint(kept));
  });
});
