/**
 * The key the admin page's session cookies are signed with: a secret of its own. It was
 * derived from the legacy desktop token, which every desktop of an old-style desk holds:
 * with that and an admin's stored token hash (a copy of the store) a cookie could be
 * forged (issue #44). Now it is MACROBELL_RELAY_ADMIN_KEY (set the same on every node of
 * a multi-node desk), else 32 random bytes generated once into DATA/admin-session.key
 * (mode 0600) — never in relay.db or Redis, so a copy of the store alone signs nothing.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { permissionProblem } from '../../db/data-owner.js';

export const ADMIN_KEY_ENV = 'MACROBELL_RELAY_ADMIN_KEY';
const KEY_FILE = 'admin-session.key';
const VALID = /^[A-Za-z0-9._~-]{32,256}$/;

export function adminKeyFile(dataDir: string): string {
  return join(dataDir, KEY_FILE);
}

/** The admin session key: from the environment, else the data folder's (made once). */
export function adminSessionKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[ADMIN_KEY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!VALID.test(fromEnv))
      throw new Error(
        `${ADMIN_KEY_ENV} must be 32–256 URL-safe characters (letters, digits, . _ ~ -)`,
      );
    return fromEnv;
  }
  const file = adminKeyFile(dataDir);
  let kept: string | null = null;
  try {
    kept = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw permissionProblem(file, err) ?? err;
  }
  if (kept !== null) {
    if (!VALID.test(kept))
      throw new Error(
        `${file} does not hold a key: delete it (a new one is made; admins sign in again)`,
      );
    return kept;
  }
  const key = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process on this folder made one first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return adminSessionKey(dataDir, env);
    throw permissionProblem(file, err) ?? err;
  }
  chmodSync(file, 0o600);
  return key;
}
