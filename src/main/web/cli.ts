/** `npm run web -- [--demo] [--port N] [--data DIR]`: the app as a local web dashboard (--help). */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAppService } from '../service.js';
import { createModeSwitchingService } from '../mode-switch.js';
import { KeytarSecretStore } from '../secrets/index.js';
import { startWebHost } from './host.js';
import { messageOf } from '../../shared/error-message.js';
import { defaultDataDir } from './data-dir.js';
import { appRoot } from './app-root.js';

const USAGE = `Usage: npm run web -- [--demo] [--port N] [--data DIR] [--demo-speed X]
       npm start -- (the same flags, where the desktop app cannot run)
  The app as a local web dashboard on 127.0.0.1 (open the printed link).
  --demo            demo data from the built-in simulator even when keys are saved
                    (default: live with saved keys or a desk relay, else demo — as the desktop app)
  --port N          listen port (default 0: any free port)
  --data DIR        the app's data folder (default: $XDG_DATA_HOME/macrobell, or
                    ~/.local/share/macrobell where XDG_DATA_HOME is unset or relative;
                    here: ${defaultDataDir()})
  --demo-speed X    the demo's pace: 1 = real time (the default), 0 = a frozen clock; above 1
                    the clock stays real and the week's releases come X times sooner
  -h, --help        this text
  MACROBELL_WEB_UI_DIR   serve another build of the UI (default: out/renderer)`;

/** Bad flags: exit 2 with the usage. Runtime failures: exit 1, one line. */
function fail(message: string, code = 2): never {
  process.stderr.write(`macrobell web: ${message}\n${code === 2 ? `${USAGE}\n` : ''}`);
  process.exit(code);
}

if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
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
  fail(messageOf(err));
}

const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be 0–65535, got "${values.port}"`);
const speed = values['demo-speed'] === undefined ? 1 : Number(values['demo-speed']);
if (!Number.isFinite(speed) || speed < 0) fail('--demo-speed must be a number ≥ 0');
const dataDir = resolve(values.data ?? defaultDataDir());
// The built renderer; MACROBELL_WEB_UI_DIR serves another build (a packager's, a test's).
const root = appRoot();
const staticDir = resolve(process.env.MACROBELL_WEB_UI_DIR || join(root, 'out/renderer'));

// The version the desktop app reports as app.getVersion(): package.json's, for presence
// on the desk's admin page and "Copy diagnostics".
const appVersion = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

const service = await createModeSwitchingService(createAppService, {
  dataDir,
  appVersion,
  mode: values.demo ? 'demo' : 'auto',
  demo: { speed },
}).catch((err: unknown) => fail(messageOf(err), 1));
if (service.simulatorUrl) process.stdout.write(`simulator listening on ${service.simulatorUrl}\n`);
// An expired login link is renewed on its page with a secret only the trader has: the
// desk personal token or the private key this app holds (never sent anywhere else).
const keychain = new KeytarSecretStore();
const loginSecrets = async () =>
  (
    await Promise.all([
      keychain.get('relayToken').catch(() => null),
      keychain.get('privateKey').catch(() => null),
    ])
  )
    .concat(process.env.MACROBELL_RELAY_TOKEN?.trim() || null)
    .filter((s): s is string => typeof s === 'string' && s.length > 0);
const host = await startWebHost({
  service,
  staticDir,
  port,
  ...(service.demo ? {} : { loginSecrets }),
}).catch(async (err: unknown) => {
  await service.stop();
  return fail(messageOf(err), 1);
});
process.stdout.write(`web UI on ${host.url}\n`);
process.stdout.write(
  '  The link works once, for 5 minutes. Press Enter here for a new one (after it expired, or to log in from another browser)' +
    // the demo has no secret of the trader's to renew it with on the page (host.ts)
    (service.demo
      ? '.\n'
      : ";\n  or, on an expired link's page, get in with your desk personal token or private key.\n"),
);
// A new login link on demand: codes expire (and a new one lets every address try again).
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

service.start().catch((err: unknown) => process.stderr.write(`macrobell: ${messageOf(err)}\n`));
