/**
 * The admin check while the desk's store does not answer (#43 item 4): the last good
 * answers, kept in memory only — the hash of each admin token the store vouched for, and
 * each admin's active token hash (their sessions' key). A lead who used this node before
 * the outage can still read the desk page and `relay status`; nothing that acts (replay)
 * takes this path, and an answer the store gives again always wins (a revoked admin is
 * forgotten at the first check after).
 */
import { tokenHash } from '../../../node/security/compare.js';
import type { AdminStore } from './admin-store.js';

export class AdminCache {
  /** Token hash → admin, for tokens the store last vouched for. */
  private readonly byToken = new Map<string, string>();
  /** Admin → their active token hash, as the store last said. */
  private readonly hashes = new Map<string, string>();

  constructor(private readonly admins: Pick<AdminStore, 'authenticate' | 'activeTokenHash'>) {}

  /** The store's answer, remembered; throws when the store cannot answer. */
  async authenticate(token: string): Promise<string | null> {
    const hash = tokenHash(token);
    const admin = await this.admins.authenticate(token);
    if (admin === null) this.byToken.delete(hash);
    else this.byToken.set(hash, admin);
    return admin;
  }

  async activeTokenHash(name: string): Promise<string | null> {
    const hash = await this.admins.activeTokenHash(name);
    if (hash === null) this.hashes.delete(name);
    else this.hashes.set(name, hash);
    return hash;
  }

  /** The admin of a token the store last vouched for, or null (not known here). */
  cachedAdmin(token: string): string | null {
    return this.byToken.get(tokenHash(token)) ?? null;
  }

  /** An admin's token hash as the store last said, or null. */
  cachedTokenHash(name: string): string | null {
    return this.hashes.get(name) ?? null;
  }
}
