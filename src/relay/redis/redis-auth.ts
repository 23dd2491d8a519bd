/**
 * The relay's Redis credentials, from where `ps` cannot show them: MACROBELL_REDIS_PASSWORD
 * (or a file named by --redis-password-file / MACROBELL_REDIS_PASSWORD_FILE) and
 * MACROBELL_REDIS_USERNAME for an ACL user; --redis-ca / MACROBELL_REDIS_CA for a private
 * CA on `rediss://`. A password inside a --redis URL still works, with a warning.
 */
import { readFileSync } from 'node:fs';
import type { RedisAuth } from './redis-client.js';

export interface RedisAuthSources {
  url: string;
  /** The URL came from the command line (visible in `ps`), not the environment. */
  urlFromArgv: boolean;
  passwordFile?: string;
  caFile?: string;
  env: NodeJS.ProcessEnv;
}

function readSecretFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    throw new Error(
      `cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/** The credentials to connect with, and warnings to log (never containing a secret). */
export function redisAuth(src: RedisAuthSources): { auth: RedisAuth; warnings: string[] } {
  const { env } = src;
  const url = new URL(src.url);
  const warnings: string[] = [];
  if (url.password && src.urlFromArgv)
    warnings.push(
      'the Redis password is inside --redis, where `ps` shows it to every local user: ' +
        'give it in MACROBELL_REDIS_PASSWORD or --redis-password-file instead',
    );
  const auth: RedisAuth = {};
  const passwordFile = src.passwordFile ?? (env.MACROBELL_REDIS_PASSWORD_FILE || undefined);
  if (env.MACROBELL_REDIS_PASSWORD) auth.password = env.MACROBELL_REDIS_PASSWORD;
  else if (passwordFile) auth.password = readSecretFile(passwordFile, 'the Redis password file');
  if (auth.password === '') throw new Error('the Redis password file is empty');
  if (env.MACROBELL_REDIS_USERNAME) auth.username = env.MACROBELL_REDIS_USERNAME;
  const caFile = src.caFile ?? (env.MACROBELL_REDIS_CA || undefined);
  if (caFile) {
    if (url.protocol !== 'rediss:')
      throw new Error('--redis-ca / MACROBELL_REDIS_CA needs a rediss:// URL (TLS)');
    auth.ca = Buffer.from(readSecretFile(caFile, 'the Redis CA file'));
  }
  return { auth, warnings };
}
