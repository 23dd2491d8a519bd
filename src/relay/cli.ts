/**
 * `npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D]`
 * `npm run relay -- register --public-url https://… [--calendar] [--news] [--replace <id>]`
 * Bad flags exit 2 with the usage; runtime failures exit 1.
 */
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import pino from 'pino';
import { REAL_SERVICE_URLS } from '../shared/domain.js';
import { register } from './register.js';
import { loadSecrets, secretsNotice, type RelaySecrets } from './secrets.js';
import { startRelay } from './server.js';

const USAGE = `Usage:
  npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D]
                    [--redis redis://HOST:PORT/DB] [--redis-durability strict|relaxed]
    (--redis or MACROBELL_RELAY_REDIS: the log on Redis Streams, shared by several nodes)
  npm run relay -- register --public-url https://relay.example.com [--calendar] [--news]
                    [--replace <id>] [--data DIR] [--auth-url URL] [--calendar-url URL] [--news-url URL]
    (keys from the environment only: MACROBELL_PUBLIC_KEY, MACROBELL_PRIVATE_KEY)
  Secrets: MACROBELL_RELAY_SECRET, MACROBELL_RELAY_TOKEN (else generated into DATA/relay-secrets.json)`;

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
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    return fail((err as Error).message);
  }
}

function httpUrl(flag: string, v: string | undefined, fallback?: string): string {
  const u = v ?? fallback;
  if (u === undefined) fail(`${flag} https://… is required`);
  try {
    const parsed = new URL(u);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return u;
  } catch {
    /* reported below */
  }
  return fail(`${flag} must be an http(s) URL, got "${u}"`);
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
  const publicKey = process.env.MACROBELL_PUBLIC_KEY;
  const privateKey = process.env.MACROBELL_PRIVATE_KEY;
  if (!publicKey || !privateKey)
    fail('set MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY in the environment (never in argv)');
  if (v.replace !== undefined && !/^[\w.:-]{1,200}$/.test(v.replace))
    fail('--replace takes a webhook id as listed by the service');
  const dataDir = resolve(v.data ?? 'relay-data');
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
    urls: {
      auth: httpUrl('--auth-url', v['auth-url'], REAL_SERVICE_URLS.auth),
      calendar: httpUrl('--calendar-url', v['calendar-url'], REAL_SERVICE_URLS.calendar),
      news: httpUrl('--news-url', v['news-url'], REAL_SERVICE_URLS.news),
    },
    keys: { publicKey, privateKey },
    print: (l) => process.stdout.write(`${l}\n`),
  }).catch((err: unknown) => fail((err as Error).message, 1));
  process.exit(code);
}

/** `--redis` / MACROBELL_RELAY_REDIS, checked; undefined = the SQLite log. */
function redisOption(
  url: string | undefined,
  durability: string | undefined,
): { url: string; durability: 'strict' | 'relaxed' } | undefined {
  if (durability !== undefined && durability !== 'strict' && durability !== 'relaxed')
    fail(`--redis-durability must be strict or relaxed, got "${durability}"`);
  if (url === undefined || url === '') {
    if (durability !== undefined)
      fail('--redis-durability needs --redis (or MACROBELL_RELAY_REDIS)');
    return undefined;
  }
  try {
    const u = new URL(url);
    if (u.protocol === 'redis:' || u.protocol === 'rediss:')
      return { url, durability: durability === 'relaxed' ? 'relaxed' : 'strict' };
  } catch {
    /* reported below */
  }
  return fail('--redis must be a redis:// or rediss:// URL');
}

/** Host and port only: the URL may carry a password. */
function redisWhere(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 6379}`;
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
  const dataDir = resolve(v.data ?? 'relay-data');
  const redis = redisOption(v.redis ?? process.env.MACROBELL_RELAY_REDIS, v['redis-durability']);
  const secrets = secretsOrFail(dataDir);
  const logger = pino({
    level: process.env.LOG_LEVEL ?? 'info',
    base: { name: 'macrobell-relay' },
    redact: ['token', 'secret', 'authorization', 'req.headers.authorization'],
  });
  const relay = await startRelay({
    dataDir,
    secret: secrets.secret,
    token: secrets.token,
    port,
    host,
    retentionDays,
    logger,
    redis,
  }).catch((err: unknown) => fail(`could not start: ${(err as Error).message}`, 1));
  // Exactly the first line on stdout: scripts and tests wait for it.
  process.stdout.write(`relay listening on ${relay.url}\n`);
  const store = redis ? `redis ${redisWhere(redis.url)}` : `sqlite ${dataDir}`;
  process.stdout.write(`relay store: ${store} (durability: ${relay.durability})\n`);
  if (secrets.generated) process.stdout.write(secretsNotice(dataDir, secrets));
  logger.info({ store, durability: relay.durability, retentionDays }, 'relay started');
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

const argv = process.argv.slice(2);
if (argv[0] === 'register') await runRegister(argv.slice(1));
else await runServe(argv);
