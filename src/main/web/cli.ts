/** `npm run web -- [--demo] [--port N] [--data DIR]`: the app as a local web dashboard. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAppService } from '../service.js';
import { createModeSwitchingService } from '../mode-switch.js';
import { startWebHost } from './host.js';

function fail(message: string): never {
  process.stderr.write(
    `macrobell web: ${message}\nUsage: npm run web -- [--demo] [--port N] [--data DIR]\n`,
  );
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      demo: { type: 'boolean', default: false },
      port: { type: 'string' },
      data: { type: 'string' },
      'demo-speed': { type: 'string' },
    },
    strict: true,
  }));
} catch (err) {
  fail((err as Error).message);
}

const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be 0–65535, got "${values.port}"`);
const speed = values['demo-speed'] === undefined ? 1 : Number(values['demo-speed']);
if (!Number.isFinite(speed) || speed < 0) fail('--demo-speed must be a number ≥ 0');
const dataDir = resolve(
  values.data ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'macrobell'),
);
const staticDir = resolve(import.meta.dirname, '../../../out/renderer');

const service = await createModeSwitchingService(createAppService, {
  dataDir,
  mode: values.demo ? 'demo' : 'auto',
  demo: { speed },
}).catch((err: unknown) => fail((err as Error).message));
if (service.simulatorUrl) process.stdout.write(`simulator listening on ${service.simulatorUrl}\n`);
const host = await startWebHost({ service, staticDir, port }).catch(async (err: unknown) => {
  await service.stop();
  return fail((err as Error).message);
});
process.stdout.write(`web UI on ${host.url}\n`);
process.stdout.write(
  '  The link works once, for 5 minutes. Press Enter here for a new one (after it expired, or to log in from another browser).\n',
);
// A new login link on demand: codes expire, and too many wrong tries stop them all.
process.stdin.on('data', () => process.stdout.write(`new login link: ${host.newLoginUrl()}\n`));
process.stdin.on('error', () => undefined);
const desk = !service.demo && (await service.api.getSettings()).connection === 'desk';
const source = service.demo
  ? 'Demo data from the built-in simulator (no API keys configured).'
  : desk
    ? 'Live data; access tokens from the desk relay (no provider keys on this machine).'
    : 'Live data from the service.';
process.stdout.write(`  ${source} Data folder: ${dataDir}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await host.close();
  await service.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

service
  .start()
  .catch((err: unknown) => process.stderr.write(`macrobell: ${(err as Error).message}\n`));
