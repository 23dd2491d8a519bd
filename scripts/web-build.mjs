// The one command that builds the web UI into out/renderer (npm test, npm run web, screenshots).
import { join } from 'node:path';

/**
 * node argv for `vite build` of the renderer, quiet but for warnings. `mode: 'e2e'` (the
 * end-to-end tests) compiles in the test fault switches (src/renderer/src/lib/test-faults.ts).
 */
export const webBuildArgv = (root, { mode = 'production' } = {}) => [
  join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
  'build',
  '--config',
  'vite.renderer.config.ts',
  '--logLevel',
  'warn',
  '--mode',
  mode,
];
