// The one command that builds the web UI into out/renderer (npm test, npm run web, screenshots).
import { join } from 'node:path';

/** node argv for `vite build` of the renderer, quiet but for warnings. */
export const webBuildArgv = (root) => [
  join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
  'build',
  '--config',
  'vite.renderer.config.ts',
  '--logLevel',
  'warn',
];
