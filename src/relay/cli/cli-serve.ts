/**
 * `relay [--port N] [--host H] [--data DIR] …`: the flags checked, the relay started, its
 * startup lines (the first stdout line is the listening line: scripts and tests wait for
 * it), and an orderly stop on SIGINT/SIGTERM.
 */
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { Logger } from 'pino';
import { createLogger } from '../../node/log/logger.js';
import { fail, httpUrl, parse, redisOption, secretsOrFail, serviceUrls } from './cli-flags.js';
import { providerKeysReader } from '../desk/provider-keys.js';
import { secretsNotice } from '../ingest/secrets.js';
import { startRelay, type RelayOptions, type RunningRelay } from '../server.js';

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
type ServeFlags = ReturnType<typeof parse<typeof SERVE_OPTIONS>>;

/** A number flag within bounds (default when absent); else exit 2 with `problem`. */
function numberFlag(
  raw: string | undefined,
  fallback: number,
  ok: (n: number) => boolean,
  problem: string,
): number {
  const n = raw === undefined ? fallback : Number(raw);
  if (!ok(n)) fail(`${problem}, got "${raw}"`);
  return n;
}

const isInt = (min: number, max: number) => (n: number) =>
  Number.isInteger(n) && n >= min && n <= max;

/** The plain flags, checked: port, host, retention, token rate, streams per user. */
function servingFlags(v: ServeFlags) {
  const port = v.port === undefined ? 8787 : Number(v.port);
  if (!/^\d+$/.test(v.port ?? '0') || !Number.isInteger(port) || port > 65535)
    fail(`--port must be an integer 0–65535, got "${String(v.port)}"`);
  const retentionDays = numberFlag(
    v['retention-days'],
    7,
    (n) => Number.isFinite(n) && n > 0 && n <= 3650,
    '--retention-days must be a positive number of days',
  );
  const host = v.host ?? '127.0.0.1';
  if (host === '' || /[\s/]/.test(host)) fail(`--host must be an address, got "${host}"`);
  const tokenRate = numberFlag(
    v['token-rate'],
    60,
    isInt(1, 100_000),
    '--token-rate must be token requests per minute per user (1–100000)',
  );
  const maxStreams = numberFlag(
    v['max-streams-per-user'],
    5,
    isInt(1, 10_000),
    '--max-streams-per-user must be an integer 1–10000',
  );
  return { port, host, retentionDays, tokenRate, maxStreams };
}

/** MACROBELL_DESK_ALERT_WEBHOOK (env only: the URL is a secret) and --alert-lead-minutes. */
function deskAlertsOption(lead: string | undefined) {
  const url = process.env.MACROBELL_DESK_ALERT_WEBHOOK || null;
  if (url !== null && !/^https?:\/\/[^\s]+$/.test(url))
    fail('MACROBELL_DESK_ALERT_WEBHOOK must be an http(s) URL (the chat incoming webhook)');
  const leadMinutes = numberFlag(
    lead,
    10,
    isInt(1, 1440),
    '--alert-lead-minutes must be minutes 1–1440',
  );
  return { webhookUrl: url, leadMinutes };
}

/** Host and port only: the URL may carry a password. */
function redisWhere(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 6379}`;
}

/**
 * Everything the flags and environment say, checked in the order they always were (a bad
 * flag exits before the data directory is touched; secrets are made before service URLs
 * are checked). `warn` takes the Redis warnings, logged after the startup lines.
 */
function serveSetup(v: ServeFlags, warn: (m: string) => void) {
  const flags = servingFlags(v);
  const dataDir = resolve(v.data ?? 'relay-data');
  const secrets = secretsOrFail(dataDir);
  const urls = serviceUrls(v);
  const deskAlerts = deskAlertsOption(v['alert-lead-minutes']);
  const logger = createLogger({
    stdout: true,
    level: process.env.LOG_LEVEL ?? 'info',
    base: { name: 'macrobell-relay' },
  });
  const redis = redisOption(v, v['redis-durability'], warn);
  let keys;
  try {
    keys = providerKeysReader(dataDir, process.env, (problem) => logger.warn(problem));
  } catch (err) {
    fail((err as Error).message, 1);
  }
  return { flags, dataDir, secrets, urls, deskAlerts, logger, redis, keys };
}

function relayOptions(v: ServeFlags, setup: ReturnType<typeof serveSetup>): RelayOptions {
  const { flags, urls } = setup;
  return {
    dataDir: setup.dataDir,
    secret: setup.secrets.secret,
    retiringSecrets: setup.secrets.accepted.slice(1),
    token: setup.secrets.token,
    port: flags.port,
    host: flags.host,
    retentionDays: flags.retentionDays,
    logger: setup.logger,
    redis: setup.redis,
    desk: {
      keys: setup.keys,
      authUrl: urls.auth,
      tokenRatePerMinute: flags.tokenRate,
      issueServiceTokens: v['issue-service-tokens'] === true,
      maxStreamsPerUser: flags.maxStreams,
    },
    gateway: { calendarUrl: urls.calendar, newsUrl: urls.news },
    deskAlerts: setup.deskAlerts,
    calendarFeed: {
      calendarUrl: urls.calendar,
      publicUrl:
        v['public-url'] === undefined ? undefined : httpUrl('--public-url', v['public-url']),
    },
  };
}

function stopOnSignals(relay: RunningRelay, logger: Logger): void {
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

export async function runServe(args: string[]): Promise<void> {
  const v = parse(args, SERVE_OPTIONS);
  const warnings: string[] = [];
  const setup = serveSetup(v, (m) => warnings.push(m));
  const { dataDir, secrets, logger, redis } = setup;
  const relay = await startRelay(relayOptions(v, setup)).catch((err: unknown) =>
    fail(`could not start: ${(err as Error).message}`, 1),
  );
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
      retentionDays: setup.flags.retentionDays,
      gateway: setup.keys()
        ? 'reads the service for traders'
        : 'no provider keys yet (relay keys set)',
      serviceTokens: v['issue-service-tokens'] === true ? 'handed out on POST /token' : 'off',
    },
    'relay started',
  );
  stopOnSignals(relay, logger);
}
