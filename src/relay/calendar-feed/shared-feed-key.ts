/**
 * The feed key on a desk of several nodes. Each node has its own data folder, so each holds
 * its own copy of DATA/calendar-feed.key; they must all be the same key, or a URL made on
 * one node would be wrong on another. The shared store keeps the first key's fingerprint
 * (set only if unset), never the key: a node whose file does not match — or that has no
 * file while the desk already has a key — refuses feeds instead of making its own.
 */
import {
  FeedKeyMismatch,
  createFeedKey,
  discardFeedKey,
  keyFingerprint,
  readFeedKey,
} from './feed-key.js';

export interface FingerprintRegistry {
  /** The desk's key fingerprint, or null while no node has a key. */
  get(): Promise<string | null>;
  /** Registers the fingerprint unless one is set; resolves with the one now registered. */
  claim(fingerprint: string): Promise<string>;
}

/**
 * This node's key once it is known to be the desk's. With `create` false a node with no
 * file and a desk with no key resolves null (nothing can be served, nothing is made).
 */
export async function sharedFeedKey(
  dataDir: string,
  registry: FingerprintRegistry,
  create: boolean,
): Promise<Buffer | null> {
  const key = readFeedKey(dataDir);
  if (key) {
    const fingerprint = keyFingerprint(key);
    if ((await registry.claim(fingerprint)) !== fingerprint) throw new FeedKeyMismatch();
    return key;
  }
  if ((await registry.get()) !== null) throw new FeedKeyMismatch();
  if (!create) return null;
  // The file first, then the claim: a fingerprint is never registered for a key no file holds.
  const made = createFeedKey(dataDir);
  const fingerprint = keyFingerprint(made);
  if ((await registry.claim(fingerprint)) === fingerprint) return made;
  // Another node made the desk's key a moment earlier: ours is nobody's, so drop it.
  discardFeedKey(dataDir);
  throw new FeedKeyMismatch();
}
