/**
 * `npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D]`
 * `npm run relay -- register --public-url https://… [--calendar] [--news] [--replace <id>]`
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { REAL_SERVICE_URLS } from '../shared/domain.js';
import { register } from './register.js';
import { loadSecrets } from './secrets.js';
import { startRelay } from './server.js';

const USAGE = `Usage:
  npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D]
  npm run relay -- register --public-url https://relay.example.com [--calendar] [--news] [--replace <id>] [--data DIR]
                    [--auth-url URL] [--calendar-url URL] [--news-url URL]   (keys: MACROBELL_PUBLIC_KEY, MACROBELL_PRIVATE_KEY)`;

function fail(message: string, code = 2): never {
  process.stderr.write(`relay: ${message}\n${USAGE}\n`);
  process.exit(code);
}

const argv = process.argv.slice(2);
const sub = argv[0] === 'register' ? 'register' : 'serve';
let values: Record<string, string | boolean | undefined>;
try {
  values = parseArgs({
    args: sub === 'register' ? argv.slice(1) : argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'retention-days': { type: 'string' },
      'public-url': { type: 'string' },
      calendar: { type: 'boolean' },
      news: { type: 'boolean' },
      replace: { type: 'string' },
      'auth-url': { type: 'string' },
      'calendar-url': { type: 'string' },
      'news-url': { type: 'string' },
    },
    strict: true,
  }).values;
} catch (err) {
  fail((err as Error).message);
}

const dataDir = resolve((values.data as string | undefined) ?? 'relay-data');
const secrets = loadSecrets(dataDir, process.env);

if (sub === 'register') {
  const publicUrl = values['public-url'] as string | undefined;
  if (!publicUrl || !/^https?:\/\//.test(publicUrl)) fail('--public-url https://… is required');
  const publicKey = process.env.MACROBELL_PUBLIC_KEY;
  const privateKey = process.env.MACROBELL_PRIVATE_KEY;
  if (!publicKey || !privateKey)
    fail(
      'set MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY in the environment (never on the command line)',
    );
  const apis = [
    ...(values.calendar ? ['calendar' as const] : []),
    ...(values.news ? ['news' as const] : []),
  ];
  const code = await register({
    publicUrl,
    secret: secrets.secret,
    apis: apis.length ? apis : ['calendar', 'news'],
    replace: values.replace as string | undefined,
    urls: {
      auth: (values['auth-url'] as string | undefined) ?? REAL_SERVICE_URLS.auth,
      calendar: (values['calendar-url'] as string | undefined) ?? REAL_SERVICE_URLS.calendar,
      news: (values['news-url'] as string | undefined) ?? REAL_SERVICE_URLS.news,
    },
    keys: { publicKey, privateKey },
    print: (l) => process.stdout.write(`${l}\n`),
  }).catch((err: unknown) => fail((err as Error).message, 1));
  process.exit(code);
}

const port = values.port === undefined ? 8787 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be 0–65535, got "${String(values.port)}"`);
const retentionDays = values['retention-days'] === undefined ? 7 : Number(values['retention-days']);
if (!Number.isFinite(retentionDays) || retentionDays <= 0)
  fail('--retention-days must be a positive number');
const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  redact: ['token', 'secret', 'authorization'],
});

const relay = await startRelay({
  dataDir,
  secret: secrets.secret,
  token: secrets.token,
  port,
  host: (values.host as string | undefined) ?? '127.0.0.1',
  retentionDays,
  log: (level, msg, extra) => logger[level](extra ?? {}, msg),
}).catch((err: unknown) => fail((err as Error).message, 1));

process.stdout.write(`relay listening on ${relay.url}\n`);
if (secrets.generated) {
  process.stdout.write(
    [
      'Generated new relay secrets (saved in ' +
        dataDir +
        '/relay-secrets.json, mode 0600; shown once):',
      `  webhook path secret: ${secrets.secret}`,
      `  desktop token:       ${secrets.token}`,
      'Register <your public URL>/hooks/<secret> with `npm run relay -- register`, and enter the',
      'relay URL and token in Macrobell → Settings → Live updates. Put the relay behind TLS.',
      '',
    ].join('\n'),
  );
}
logger.info({ dataDir, retentionDays }, 'relay started');
const stop = () => void relay.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
