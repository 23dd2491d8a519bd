/**
 * Whether a desk user may still read their feed, through the users store's public API
 * (list): revoked → no. The legacy single-token user is not in the table and stays
 * active while the relay runs with that token.
 */
import type { UserDirectory } from '../users.js';

export interface UserStatus {
  active: boolean;
  /** When the user (this incarnation of the name) was added; null for the legacy user. */
  createdAt: number | null;
}

export function userStatus(users: Pick<UserDirectory, 'list'>, name: string): UserStatus {
  const info = users.list().find((u) => u.name === name);
  if (!info) return { active: name === 'relay-token', createdAt: null };
  return { active: info.revokedAt === null, createdAt: info.createdAt };
}
