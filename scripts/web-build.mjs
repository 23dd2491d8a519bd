// The one command that builds the web UI into out/renderer (npm test, npm run web, screenshots).
//
//   node scripts/web-build.mjs    build the UI when it is missing or older than its sources
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Whether out/renderer is missing or older than the renderer's sources. */
export function rendererStale(root) {
  const built = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(built)) return true;
  const sources = [join(root, 'src', 'renderer'), join(root, 'src', 'shared')];
  return sources.some((d) => newest(d) > statSync(built).mtimeMs);
}

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  if (rendererStale(root)) {
    const r = spawnSync(process.execPath, webBuildArgv(root), { cwd: root, stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
}
