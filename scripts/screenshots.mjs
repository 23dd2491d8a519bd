// `npm run screenshots`: build the web UI, then refresh docs/screenshots/*.png from the
// end-to-end screenshot test (which writes to a temporary folder during `npm test`).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = (argv, env = {}) =>
  spawnSync(process.execPath, argv, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  }).status ?? 1;

const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
let status = node([vite, 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn']);
if (status === 0)
  status = node(
    [vitest, 'run', '--config', 'vitest.e2e.config.ts', 'test/e2e/screenshots.e2e.ts'],
    { MACROBELL_SCREENSHOTS: 'docs' },
  );
process.exit(status);
