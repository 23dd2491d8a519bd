// `npm run web`: builds the renderer and the web host's bundle when they are missing or
// older than their sources, then starts the web-mode host (src/main/web/cli.ts, bundled in
// out/web-host: scripts/web-host-build.mjs) with node, passing the arguments through.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureApprovedScripts } from './approved-scripts.mjs';
import { webBuildArgv } from './web-build.mjs';
import { ensureWebHost, webHostEntry } from './web-host-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'renderer', 'index.html');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = [join(root, 'src', 'renderer'), join(root, 'src', 'shared')];
// `--help` needs no UI build: the host prints its usage and exits.
const help = process.argv.slice(2).some((a) => a === '--help' || a === '-h');
const stale =
  !help && (!existsSync(built) || sources.some((d) => newest(d) > statSync(built).mtimeMs));
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

// `--help` needs no build either: the sources under tsx print the usage
const host = help
  ? ['--import', 'tsx', join(root, 'src', 'main', 'web', 'cli.ts')]
  : [webHostEntry(root)];
const child = spawn(process.execPath, [...host, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
