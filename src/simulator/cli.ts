/** `npm run simulator -- [--port N] [--host H] [--seed S] [--speed X] [--client-id ID] [--client-secret S]` */
import { parseArgs } from 'node:util';
import { startSimulator } from './index.js';
import { messageOf } from '../shared/error-message.js';

const USAGE = `Usage: npm run simulator -- [--port N] [--host H] [--seed S] [--speed X] [--client-id ID] [--client-secret S]
  A stand-in for the market-data service (auth, calendar, news, webhooks) on loopback.
  --port N          listen port (default 0: any free port, printed on the first line)
  --host H          listen address (default 127.0.0.1)
  --seed S          the market's seed (same seed, same events)
  --speed X         demo pace: 1 = real time (the default), 0 = a frozen clock; above 1 the
                    clock stays real and the week's upcoming releases come X times sooner
  --client-id ID / --client-secret S   the keys it accepts (default: printed demo keys)
  -h, --help        this text
  Control API (loopback only, under /_sim/; docs/service-api.md): create, change and delete
  events, event dates and posts (/_sim/events, /_sim/event-dates, /_sim/posts), move the
  clock (/_sim/clock), inject faults (/_sim/faults), and read the state (/_sim/state).`;

/** Bad flags: exit 2 with the usage. Runtime failures (port taken): exit 1, one line. */
function fail(message: string, code = 2): never {
  process.stderr.write(`simulator: ${message}\n${code === 2 ? `${USAGE}\n` : ''}`);
  process.exit(code);
}

if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

function number(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
  integer = false,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (
    value.trim() === '' ||
    !Number.isFinite(n) ||
    n < min ||
    n > max ||
    (integer && !Number.isInteger(n))
  )
    fail(
      `--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${value}"`,
    );
  return n;
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      speed: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
    },
    strict: true,
  }).values;
} catch (err) {
  fail(messageOf(err));
}

const sim = await startSimulator({
  port: number('port', args.port, 0, 65535, true) ?? 0,
  host: args.host ?? '127.0.0.1',
  // `--seed 7` means the same market as `startSimulator({ seed: 7 })`
  seed: args.seed === undefined ? 1 : /^\d+$/.test(args.seed) ? Number(args.seed) : args.seed,
  speed: number('speed', args.speed, 0, 10_000) ?? 1,
  clientId: args['client-id'],
  clientSecret: args['client-secret'],
}).catch((err: unknown) => fail(messageOf(err), 1));

process.stdout.write(`simulator listening on ${sim.url}\n`);
process.stdout.write(
  [
    // the demo keys are public knowledge; a private key passed on the command line is not echoed
    `  keys:     ${sim.clientId} / ${args['client-secret'] === undefined ? sim.clientSecret : '(the private key you passed)'}`,
    `  auth:     ${sim.authUrl}/v2/token`,
    `  calendar: ${sim.calendarUrl}/en/api/v1/…`,
    `  news:     ${sim.newsUrl}/v4/en-US/…`,
    `  control:  ${sim.url}/_sim/state`,
    '',
  ].join('\n'),
);

const stop = () => {
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
