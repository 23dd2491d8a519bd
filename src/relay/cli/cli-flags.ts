/**
 * What the relay's commands share for their flags: one failure path (usage and exit 2 for
 * a bad flag, one line and exit 1 for a runtime failure), strict parsing, and the checked
 * values several commands take (service URLs, secrets, Redis).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { credentialUrlProblem } from '../../shared/url-policy.js';
import { REAL_SERVICE_URLS } from '../../shared/domain.js';
import { redisAuth } from '../redis/redis-auth.js';
import type { RedisTarget } from '../redis/redis-client.js';
import { DURABILITY_MODES, type DurabilityMode } from '../log/redis-durability.js';
import { loadSecrets, type RelaySecrets } from '../ingest/secrets.js';
import { USAGE } from './cli-usage.js';

export function fail(message: string, code = 2): never {
  process.stderr.write(`relay: ${message}\n${code === 2 ? `${USAGE}\n` : ''}`);
  process.exit(code);
}

export function parse<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
) {
  return parseWith(args, options, false).values;
}

export function parseWith<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    return fail((err as Error).message);
  }
}

export function httpUrl(flag: string, v: string | undefined, fallback?: string): string {
  const u = v || fallback;
  if (u === undefined) fail(`${flag} https://… is required`);
  const problem = credentialUrlProblem(u, flag);
  return problem ? fail(problem) : u;
}

/** The service URLs: flags, else the app's environment variables, else the real service. */
export function serviceUrls(v: {
  'auth-url'?: string;
  'calendar-url'?: string;
  'news-url'?: string;
}) {
  const env = process.env;
  return {
    auth: httpUrl('--auth-url', v['auth-url'] ?? env.MACROBELL_AUTH_URL, REAL_SERVICE_URLS.auth),
    calendar: httpUrl(
      '--calendar-url',
      v['calendar-url'] ?? env.MACROBELL_CALENDAR_URL,
      REAL_SERVICE_URLS.calendar,
    ),
    news: httpUrl('--news-url', v['news-url'] ?? env.MACROBELL_NEWS_URL, REAL_SERVICE_URLS.news),
  };
}

export function secretsOrFail(dataDir: string): RelaySecrets {
  try {
    return loadSecrets(dataDir, process.env);
  } catch (err) {
    return fail((err as Error).message, 1);
  }
}

export interface RedisFlags {
  redis?: string;
  'redis-password-file'?: string;
  'redis-ca'?: string;
}

/** `--redis` / MACROBELL_RELAY_REDIS, checked; undefined = the SQLite log. */
export function redisOption(
  flags: RedisFlags,
  durability: string | undefined,
  warn: (message: string) => void,
): (RedisTarget & { durability: DurabilityMode }) | undefined {
  const url = flags.redis ?? process.env.MACROBELL_RELAY_REDIS;
  const mode = DURABILITY_MODES.find((m) => m === durability);
  if (durability !== undefined && mode === undefined)
    fail(`--redis-durability must be ${DURABILITY_MODES.join(', ')}; got "${durability}"`);
  if (url === undefined || url === '') {
    if (durability !== undefined)
      fail('--redis-durability needs --redis (or MACROBELL_RELAY_REDIS)');
    return undefined;
  }
  try {
    const u = new URL(url);
    if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error('scheme');
  } catch {
    return fail('--redis must be a redis:// or rediss:// URL');
  }
  let found;
  try {
    found = redisAuth({
      url,
      urlFromArgv: flags.redis !== undefined,
      passwordFile: flags['redis-password-file'],
      caFile: flags['redis-ca'],
      env: process.env,
    });
  } catch (err) {
    return fail((err as Error).message, 1);
  }
  found.warnings.forEach(warn);
  return { url, auth: found.auth, durability: mode ?? 'strict' };
}
