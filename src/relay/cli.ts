/**
 * `npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D] [service URLs]`
 * `npm run relay -- register --public-url https://… [--calendar] [--news] [--replace <id>]`
 * plus the desk subcommands (users, keys set, secrets show, rotate-secret: cli-desk.ts).
 * `--help`/`-h` prints the usage (exit 0); bad flags exit 2 with it; runtime failures exit 1
 * with one line.
 */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { credentialUrlProblem } from '../shared/url-policy.js';
import { REAL_SERVICE_URLS } from '../shared/domain.js';
import {
  keysSetCommand,
  rotateSecretCommand,
  secretsShowCommand,
  usersCommand,
  type DeskCliContext,
} from './cli-desk.js';
import { adminsCommand, logCommand, replayCommand, statusCommand } from './desk-ops/cli-ops.js';
import { loadProviderKeys, providerKeysReader } from './provider-keys.js';
import { redisAuth } from './redis-auth.js';
import type { RedisTarget } from './redis-client.js';
import { RedisUserStore } from './redis-users.js';
import { register } from './register.js';
import { loadSecrets, secretsNotice, type RelaySecrets } from './secrets.js';
import { startRelay } from './server.js';
import { USAGE } from './cli-usage.js';
import { SqliteUserStore } from './users.js';
import { createLogger } from '../node/log/logger.js';

function fail(message: string, code = 2): never {
  process.stderr.write(`relay: ${message}\n${code === 2 ? `${USAGE}\n` : ''}`);
  process.exit(code);
}

const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  'retention-days': { type: 'string' },
  redis: { type: 'string' },
  'redis-durability': { type: 'string' },
  'redis-password-file': { type: 'string' },
  'redis-ca': { type: 'string' },
  'token-rate': { type: 'string' },
  'auth-url': { type: 'string' },
  'calendar-url': { type: 'string' },
  'news-url': { type: 'string' },
  'public-url': { type: 'string' },
  'issue-service-tokens': { type: 'boolean' },
  'max-streams-per-user': { type: 'string' },
  'alert-lead-minutes': { type: 'string' },
} satisfies ParseArgsConfig['options'];
const DATA_ONLY = { data: { type: 'string' } } satisfies ParseArgsConfig['options'];
const USERS_OPTIONS = {
  data: { type: 'string' },
  redis: { type: 'string' },
  'redis-password-file': { type: 'string' },
  'redis-ca': { type: 'string' },
} satisfies ParseArgsConfig['options'];
const ROTATE_OPTIONS = {
  data: { type: 'string' },
  'public-url': { type: 'string' },
  'auth-url': { type: 'string' },
  'calendar-url': { type: 'string' },
  'news-url': { type: 'string' },
} satisfies ParseArgsConfig['options'];
const REGISTER_OPTIONS = {
  data: { type: 'string' },
  'public-url': { type: 'string' },
  calendar: { type: 'boolean' },
  news: { type: 'boolean' },
  replace: { type: 'string' },
  'auth-url': { type: 'string' },
  'calendar-url': { type: 'string' },
  'news-url': { type: 'string' },
} satisfies ParseArgsConfig['options'];

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  return parseWith(args, options, false).values;
}

function parseWith<O extends NonNullable<ParseArgsConfig['options']>>(
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

function httpUrl(flag: string, v: string | undefined, fallback?: string): string {
  const u = v || fallback;
  if (u === undefined) fail(`${flag} https://… is required`);
  const problem = credentialUrlProblem(u, flag);
  return problem ? fail(problem) : u;
}

/** The service URLs: flags, else the app's environment variables, else the real service. */
function serviceUrls(v: { 'auth-url'?: string; 'calendar-url'?: string; 'news-url'?: string }) {
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

function secretsOrFail(dataDir: string): RelaySecrets {
  try {
    return loadSecrets(dataDir, process.env);
  } catch (err) {
    return fail((err as Error).message, 1);
  }
}

async function runRegister(args: string[]): Promise<never> {
  const v = parse(args, REGISTER_OPTIONS);
  const publicUrl = httpUrl('--public-url', v['public-url']);
  if (v.replace !== undefined && !/^[\w.:-]{1,200}$/.test(v.replace))
    fail('--replace takes a webhook id as listed by the service');
  const dataDir = resolve(v.data ?? 'relay-data');
  let keys;
  try {
    keys = loadProviderKeys(dataDir, process.env);
  } catch (err) {
    fail((err as Error).message, 1);
  }
  if (!keys)
    fail(
      'no provider keys: set MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY in the environment (never in argv) or run `relay keys set`',
      1,
    );
  const secrets = secretsOrFail(dataDir);
  if (secrets.generated) process.stdout.write(secretsNotice(dataDir, secrets));
  const apis = [
    ...(v.calendar ? (['calendar'] as const) : []),
    ...(v.news ? (['news'] as const) : []),
  ];
  const code = await register({
    publicUrl,
    secret: secrets.secret,
    apis: apis.length ? apis : ['calendar', 'news'],
    replace: v.replace,
    urls: serviceUrls(v),
    keys,
    print: (l) => process.stdout.write(`${l}\n`),
  }).catch((err: unknown) => fail((err as Error).message, 1));
  process.exit(code);
}

interface RedisFlags {
  redis?: string;
  'redis-password-file'?: string;
  'redis-ca'?: string;
}

/** `--redis` / MACROBELL_RELAY_REDIS, checked; undefined = the SQLite log. */
function redisOption(
  flags: RedisFlags,
  durability: string | undefined,
  warn: (message: string) => void,
): (RedisTarget & { durability: 'strict' | 'relaxed' }) | undefined {
  const url = flags.redis ?? process.env.MACROBELL_RELAY_REDIS;
  if (durability !== undefined && durability !== 'strict' && durability !== 'relaxed')
    fail(`--redis-durability must be strict or relaxed, got "${durability}"`);
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
  return { url, auth: found.auth, durability: durability === 'relaxed' ? 'relaxed' : 'strict' };
}

/** Host and port only: the URL may carry a password. */
function redisWhere(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 6379}`;
}

/** MACROBELL_DESK_ALERT_WEBHOOK (env only: the URL is a secret) and --alert-lead-minutes. */
function deskAlertsOption(lead: string | undefined) {
  const url = process.env.MACROBELL_DESK_ALERT_WEBHOOK || null;
  if (url !== null && !/^https?:\/\/[^\s]+$/.test(url))
    fail('MACROBELL_DESK_ALERT_WEBHOOK must be an http(s) URL (the chat incoming webhook)');
  const leadMinutes = lead === undefined ? 10 : Number(lead);
  if (!Number.isInteger(leadMinutes) || leadMinutes < 1 || leadMinutes > 1440)
    fail(`--alert-lead-minutes must be minutes 1–1440, got "${lead}"`);
  return { webhookUrl: url, leadMinutes };
}

async function runServe(args: string[]): Promise<void> {
  const v = parse(args, SERVE_OPTIONS);
  const port = v.port === undefined ? 8787 : Number(v.port);
  if (!/^\d+$/.test(v.port ?? '0') || !Number.isInteger(port) || port > 65535)
    fail(`--port must be an integer 0–65535, got "${String(v.port)}"`);
  const retentionDays = v['retention-days'] === undefined ? 7 : Number(v['retention-days']);
  if (!Number.isFinite(retentionDays) || retentionDays <= 0 || retentionDays > 3650)
    fail(`--retention-days must be a positive number of days, got "${v['retention-days']}"`);
  const host = v.host ?? '127.0.0.1';
  if (host === '' || /[\s/]/.test(host)) fail(`--host must be an address, got "${host}"`);
  const tokenRate = v['token-rate'] === undefined ? 60 : Number(v['token-rate']);
  if (!Number.isInteger(tokenRate) || tokenRate < 1 || tokenRate > 100_000)
    fail(
      `--token-rate must be token requests per minute per user (1–100000), got "${v['token-rate']}"`,
    );
  const maxStreams =
    v['max-streams-per-user'] === undefined ? 5 : Number(v['max-streams-per-user']);
  if (!Number.isInteger(maxStreams) || maxStreams < 1 || maxStreams > 10_000)
    fail(`--max-streams-per-user must be an integer 1–10000, got "${v['max-streams-per-user']}"`);
  const dataDir = resolve(v.data ?? 'relay-data');
  const secrets = secretsOrFail(dataDir);
  const urls = serviceUrls(v);
  const deskAlerts = deskAlertsOption(v['alert-lead-minutes']);
  const logger = createLogger({
    stdout: true,
    level: process.env.LOG_LEVEL ?? 'info',
    base: { name: 'macrobell-relay' },
  });
  // Logged after the startup lines (the first stdout line is the listening line).
  const warnings: string[] = [];
  const redis = redisOption(v, v['redis-durability'], (m) => warnings.push(m));
  let keys;
  try {
    keys = providerKeysReader(dataDir, process.env, (problem) => logger.warn(problem));
  } catch (err) {
    fail((err as Error).message, 1);
  }
  const relay = await startRelay({
    dataDir,
    secret: secrets.secret,
    token: secrets.token,
    port,
    host,
    retentionDays,
    logger,
    redis,
    desk: {
      keys,
      authUrl: urls.auth,
      tokenRatePerMinute: tokenRate,
      issueServiceTokens: v['issue-service-tokens'] === true,
      maxStreamsPerUser: maxStreams,
    },
    gateway: { calendarUrl: urls.calendar, newsUrl: urls.news },
    deskAlerts,
    calendarFeed: {
      calendarUrl: urls.calendar,
      publicUrl:
        v['public-url'] === undefined ? undefined : httpUrl('--public-url', v['public-url']),
    },
  }).catch((err: unknown) => fail(`could not start: ${(err as Error).message}`, 1));
  // Exactly the first line on stdout: scripts and tests wait for it.
  process.stdout.write(`relay listening on ${relay.url}\n`);
  const store = redis ? `redis ${redisWhere(redis.url)}` : `sqlite ${dataDir}`;
  process.stdout.write(`relay store: ${store} (durability: ${relay.durability})\n`);
  if (secrets.generated) process.stdout.write(secretsNotice(dataDir, secrets));
  warnings.forEach((m) => logger.warn(m));
  logger.info(
    {
      store,
      durability: relay.durability,
      retentionDays,
      gateway: keys() ? 'reads the service for traders' : 'no provider keys yet (relay keys set)',
      serviceTokens: v['issue-service-tokens'] === true ? 'handed out on POST /token' : 'off',
    },
    'relay started',
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'relay stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void relay.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

function deskContext(data: string | undefined): DeskCliContext {
  return {
    dataDir: resolve(data ?? 'relay-data'),
    env: process.env,
    out: (l) => process.stdout.write(`${l}\n`),
    err: (l) => process.stderr.write(`${l}\n`),
  };
}

async function runDesk(command: string, args: string[]): Promise<never> {
  let code: number;
  try {
    if (command === 'users') {
      const { values, positionals } = parseWith(args, USERS_OPTIONS, true);
      if (positionals.length < 1 || positionals.length > 2)
        fail('users takes: add NAME | list | revoke NAME');
      const redis = redisOption(values, undefined, (m) => process.stderr.write(`relay: ${m}\n`));
      const ctx = deskContext(values.data);
      const store = redis ? await RedisUserStore.open(redis) : SqliteUserStore.open(ctx.dataDir);
      code = await usersCommand(ctx, store, positionals[0] as string, positionals[1]);
    } else if (command === 'keys') {
      const { values, positionals } = parseWith(args, DATA_ONLY, true);
      if (positionals.join(' ') !== 'set') fail('keys takes: set');
      code = await keysSetCommand(deskContext(values.data));
    } else if (command === 'secrets') {
      const { values, positionals } = parseWith(args, DATA_ONLY, true);
      if (positionals.join(' ') !== 'show') fail('secrets takes: show');
      code = secretsShowCommand(deskContext(values.data));
    } else {
      const v = parse(args, ROTATE_OPTIONS);
      const publicUrl = httpUrl('--public-url', v['public-url']);
      code = await rotateSecretCommand(deskContext(v.data), publicUrl, serviceUrls(v));
    }
  } catch (err) {
    fail((err as Error).message, 1);
  }
  process.exit(code);
}

// Every file the relay writes (database, WAL, logs, secrets) is readable by its user only.
process.umask(0o077);
const argv = process.argv.slice(2);
if (argv.some((a) => a === '--help' || a === '-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (argv[0] === 'register') await runRegister(argv.slice(1));
else if (['admins', 'status', 'log', 'replay'].includes(argv[0] ?? '')) {
  const io = {
    env: process.env,
    out: (l: string) => console.log(l),
    err: (l: string) => console.error(l),
  };
  const warn = (m: string) => process.stderr.write(`relay: ${m}\n`);
  const run = {
    admins: (a: string[], o: typeof io) =>
      adminsCommand(a, o, (flags) => redisOption(flags, undefined, warn)),
    status: statusCommand,
    log: logCommand,
    replay: replayCommand,
  }[argv[0] as 'admins'];
  process.exit(await run(argv.slice(1), io).catch((err: unknown) => fail((err as Error).message)));
} else if (['users', 'keys', 'secrets', 'rotate-secret'].includes(argv[0] ?? ''))
  await runDesk(argv[0] as string, argv.slice(1));
else await runServe(argv);
