/**
 * The desk's provider keys, which only the relay holds: from MACROBELL_PUBLIC_KEY /
 * MACROBELL_PRIVATE_KEY, else DATA/provider-keys.json (mode 0600, written by
 * `relay keys set`). Never printed, never logged; errors name the file, not the values.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Credentials } from '../../node/oauth/client-credentials.js';
import { readKeptJson } from '../db/kept-json.js';

const KEYS_FILE = 'provider-keys.json';
const keySchema = z.string().trim().min(1).max(1000);
const fileSchema = z.object({ publicKey: keySchema, privateKey: keySchema });

const keysFile = (dataDir: string) => join(dataDir, KEYS_FILE);

export function loadProviderKeys(dataDir: string, env: NodeJS.ProcessEnv): Credentials | null {
  const publicKey = env.MACROBELL_PUBLIC_KEY?.trim();
  const privateKey = env.MACROBELL_PRIVATE_KEY?.trim();
  if (publicKey && privateKey) return { publicKey, privateKey };
  if (publicKey || privateKey)
    throw new Error('set both MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY, or neither');
  return readKeptJson(keysFile(dataDir), fileSchema, 'write it again with `relay keys set`', {
    private: true,
  });
}

export function saveProviderKeys(dataDir: string, keys: Credentials): string {
  const checked = fileSchema.parse(keys);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = keysFile(dataDir);
  writeFileSync(file, JSON.stringify(checked), { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only when the file is created
  return file;
}

/**
 * The keys as they are now: `relay keys set` on a running relay takes effect within a
 * second, no restart. Keys from the environment are fixed for the process's life. The
 * file is re-read only when its mtime or size changed; a file that became unreadable or
 * invalid keeps the last good keys (and says so once), so a half-written edit never
 * stops token service.
 */
export function providerKeysReader(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  onProblem: (message: string) => void = () => {},
  now: () => number = Date.now,
): () => Credentials | null {
  let keys = loadProviderKeys(dataDir, env);
  if (env.MACROBELL_PUBLIC_KEY?.trim()) return () => keys;
  const file = keysFile(dataDir);
  const stamp = () => {
    try {
      const s = statSync(file);
      return `${s.mtimeMs}:${s.size}`;
    } catch {
      return 'absent';
    }
  };
  let seen = stamp();
  let checkedAt = now();
  let reported: string | null = null;
  return () => {
    if (now() - checkedAt < 1000) return keys;
    checkedAt = now();
    const current = stamp();
    if (current === seen) return keys;
    seen = current;
    try {
      keys = loadProviderKeys(dataDir, env);
      reported = null;
    } catch (err) {
      const message = (err as Error).message;
      if (reported !== message) onProblem(`${message}; still using the keys read before`);
      reported = message;
    }
    return keys;
  };
}
