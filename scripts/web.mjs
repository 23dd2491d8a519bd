// `npm run web`: builds the renderer and the web host's bundle when they are missing or
// older than their sources, then runs the web-mode host (src/main/web/cli.ts, bundled in
// out/web-host: scripts/web-host-build.mjs) in this process, with the arguments passed.
import { spawn, spawnSync } from 'node:child_process';
import { enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureApprovedScripts } from './approved-scripts.mjs';
import { rendererStale, webBuildArgv } from './web-build.mjs';
import { compileCacheOf, ensureWebHost, webHostEntry } from './web-host-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// `--help` needs no UI build: the host prints its usage and exits.
const help = process.argv.slice(2).some((a) => a === '--help' || a === '-h');
const stale = !help && rendererStale(root);
if (!help && ensureApprovedScripts() !== 0) process.exit(1);
if (stale) {
  process.stdout.write('Building the web UI…\n');
  const r = spawnSync(process.execPath, webBuildArgv(root), { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!help) {
  try {
    if (await ensureWebHost(root)) process.stdout.write('Built the web host.\n');
  } catch (err) {
    process.stderr.write(
      `Could not build the web host: ${err instanceof Error ? err.message : err}\n`,
    );
    process.exit(1);
  }
}

if (help) {
  // `--help` needs no build either: the sources under tsx print the usage
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src', 'main', 'web', 'cli.ts'), ...process.argv.slice(2)],
    { cwd: root, stdio: 'inherit' },
  );
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  // the host runs in this process (it reads the same arguments, after this script's name):
  // a second Node.js start would cost a first run a few hundred ms on a loaded machine.
  // The modules it loads from here on are compiled once, then read from the build's cache.
  const entry = webHostEntry(root);
  enableCompileCache(compileCacheOf(entry));
  await import(pathToFileURL(entry).href);
}
