// `npm run screenshots`: build the web UI, then refresh docs/screenshots/*.png from the
// end-to-end screenshot test (which writes to a temporary folder during `npm test`), on the
// clock its header pins (scripts/clock.mjs): the README shows the same demo afternoon
// whatever day it is refreshed.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atMoment, clockPragma, requireFaketime } from './clock.mjs';
import { webBuildArgv } from './web-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args, env = {}) =>
  spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  }).status ?? 1;

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const file = 'test/e2e/screenshots.e2e.ts';
const argv = [vitest, 'run', '--config', 'vitest.e2e.config.ts', file];
const at = clockPragma(join(root, file));
let status = run(process.execPath, webBuildArgv(root));
if (status === 0) {
  const env = { MACROBELL_SCREENSHOTS: 'docs' };
  if (at && at !== 'any-day') {
    requireFaketime();
    const how = atMoment(at, [process.execPath, ...argv]);
    status = run(how.command, how.args, { ...env, ...how.env });
  } else status = run(process.execPath, argv, env);
}
process.exit(status);
