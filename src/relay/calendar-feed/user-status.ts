/**
 * Whether a desk user may still read their feed, through the users store's public API
 * (list; on Redis every node sees the same answer): revoked → no. The legacy single-token
 * user is not in the store and stays active while the relay runs with that token.
 */
import { StoreUnavailable } from '../log/event-log.js';
import { LEGACY_USER, type UserInfo, type UserStore } from '../users/user-store.js';

export interface UserStatus {
  active: boolean;
  /** When the user (this incarnation of the name) was added; null for the legacy user. */
  createdAt: number | null;
}

export async function userStatus(
  users: Pick<UserStore, 'list'>,
  name: string,
): Promise<UserStatus> {
  let list: UserInfo[];
  try {
    list = await users.list();
  } catch (err) {
    // Redis away: the route answers 503 (retry), not 500.
    throw new StoreUnavailable(`the users store: ${(err as Error).message}`);
  }
  const info = list.find((u) => u.name === name);
  if (!info) return { active: name === LEGACY_USER, createdAt: null };
  return { active: info.revokedAt === null, createdAt: info.createdAt };
}
