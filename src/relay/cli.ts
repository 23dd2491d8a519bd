/**
 * `npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D] [service URLs]`
 * `npm run relay -- register --public-url https://… [--calendar] [--news] [--replace <id>]`
 * plus the desk subcommands (users, keys set, secrets show, rotate-secret: cli-desk.ts).
 * `--help`/`-h` prints the usage (exit 0); bad flags exit 2 with it; runtime failures exit 1
 * with one line.
 */
// First: refuse an old Node.js with a clear line before native modules load.
import './cli/node-version.js';
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import {
  fail,
  httpUrl,
  parse,
  parseWith,
  redisOption,
  secretsOrFail,
  serviceUrls,
} from './cli/cli-flags.js';
import { runServe } from './cli/cli-serve.js';
import {
  keysSetCommand,
  secretsShowCommand,
  storeAcceptLossCommand,
  usersCommand,
  type DeskCliContext,
} from './cli/cli-desk.js';
import { adminsCommand, logCommand, replayCommand, statusCommand } from './desk-ops/cli-ops.js';
import { becomeDataFolderOwner } from './db/data-owner.js';
import { loadProviderKeys } from './desk/provider-keys.js';
import { RedisUserStore } from './users/redis-users.js';
import { register } from './cli/register.js';
import { rotateSecretCommand } from './cli/rotate-secret.js';
import { backupCli } from './cli/backup.js';
import { nodesCli } from './cli/nodes-forget.js';
import { restoreSecretsFile, secretsFileSnapshot, secretsNotice } from './ingest/secrets.js';
import { relayAccepts } from './cli/hook-probe.js';
import { USAGE } from './cli/cli-usage.js';
import { SqliteUserStore } from './users/users.js';

const DATA_ONLY = { data: { type: 'string' } } satisfies ParseArgsConfig['options'];
const USERS_OPTIONS = {
  data: { type: 'string' },
  redis: { type: 'string' },
  'redis-password-file': { type: 'string' },
  'redis-ca': { type: 'string' },
} satisfies ParseArgsConfig['options'];
const ROTATE_OPTIONS = {
  data: { type: 'string' },
  redis: { type: 'string' },
  'redis-password-file': { type: 'string' },
  'redis-ca': { type: 'string' },
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
  unchecked: { type: 'boolean' },
  'auth-url': { type: 'string' },
  'calendar-url': { type: 'string' },
  'news-url': { type: 'string' },
} satisfies ParseArgsConfig['options'];

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
  const before = secretsFileSnapshot(dataDir);
  const secrets = secretsOrFail(dataDir);
  // Never point the service at a URL the running nodes answer 404 (hook-probe.ts).
  const probe = v.unchecked ? { ok: true as const } : await relayAccepts(publicUrl, secrets.secret);
  if (!probe.ok) {
    restoreSecretsFile(dataDir, before);
    fail(
      `${publicUrl.replace(/\/+$/, '')}/hooks/<secret> ${probe.reason}. Nothing was registered or written: ` +
        "run register where the relay's secret is (its --data folder, or its service's environment), with the relay running (--unchecked skips this check).",
      1,
    );
  }
  if (secrets.generated) process.stdout.write(secretsNotice(dataDir, secrets));
  const apis = [
    ...(v.calendar ? (['calendar'] as const) : []),
    ...(v.news ? (['news'] as const) : []),
  ];
  // The printed --replace lines repeat the user's own flags (--data, service URLs).
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--calendar' || a === '--news') continue;
    if (a === '--replace') {
      i++;
      continue;
    }
    if (a.startsWith('--replace=')) continue;
    kept.push(/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`);
  }
  const code = await register({
    rerun: `npm run relay -- register ${kept.join(' ')}`,
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
    } else if (command === 'store') {
      const { values, positionals } = parseWith(args, USERS_OPTIONS, true);
      if (positionals.join(' ') !== 'accept-loss') fail('store takes: accept-loss');
      const redis = redisOption(values, undefined, (m) => process.stderr.write(`relay: ${m}\n`));
      if (!redis) fail('store accept-loss needs --redis URL (or MACROBELL_RELAY_REDIS)');
      code = await storeAcceptLossCommand(deskContext(values.data), redis);
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
      const urls = serviceUrls(v);
      const redis = redisOption(v, undefined, (m) => process.stderr.write(`relay: ${m}\n`));
      code = await rotateSecretCommand(deskContext(v.data), publicUrl, urls, redis);
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
// Run as root, commands that write into the data folder write as its owner (data-owner.ts).
const WRITES_DATA = ['register', 'users', 'admins', 'keys', 'secrets', 'rotate-secret', 'restore'];
const onRedis = (args: string[]) =>
  args.some((a) => a === '--redis' || a.startsWith('--redis=')) ||
  Boolean(process.env.MACROBELL_RELAY_REDIS);
if (
  WRITES_DATA.includes(argv[0] ?? '') &&
  !(['users', 'admins'].includes(argv[0] ?? '') && onRedis(argv))
) {
  const at = argv.indexOf('--data');
  const inline = argv.find((a) => a.startsWith('--data='));
  const data = inline?.slice('--data='.length) ?? (at >= 0 ? argv[at + 1] : undefined);
  const note = becomeDataFolderOwner(data ?? 'relay-data');
  if (note) process.stderr.write(`${note}\n`);
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
} else if (argv[0] === 'nodes') {
  const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };
  process.exit(
    await nodesCli(argv.slice(1), io).catch((err: unknown) => fail((err as Error).message, 1)),
  );
} else if (argv[0] === 'backup' || argv[0] === 'restore')
  process.exit(
    await backupCli(argv[0], argv.slice(1)).catch((err: unknown) =>
      fail((err as Error).message, 1),
    ),
  );
else if (['users', 'keys', 'secrets', 'rotate-secret', 'store'].includes(argv[0] ?? ''))
  await runDesk(argv[0] as string, argv.slice(1));
else await runServe(argv);
