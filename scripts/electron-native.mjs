// better-sqlite3 is a V8 addon: Electron needs its own build, while tests, web mode and
// the relay keep the Node build in node_modules. This builds a copy for Electron's ABI
// into .electron-native/ (once per Electron version); the main process loads it through
// better-sqlite3's `nativeBinding` option. keytar uses N-API, which is ABI-stable, so it
// needs no rebuild.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(
  readFileSync(require.resolve('electron/package.json'), 'utf8'),
).version;
const outDir = join(root, '.electron-native');
const target = join(outDir, 'better_sqlite3.node');
const stamp = join(outDir, 'stamp.json');
const want = { electron: electronVersion, arch: process.arch, platform: process.platform };

if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8') === JSON.stringify(want))
  process.exit(0);

process.stdout.write(
  `Building the SQLite module for Electron ${electronVersion} (first run only, about a minute)…\n`,
);
const work = join(outDir, 'build', 'better-sqlite3');
rmSync(work, { recursive: true, force: true });
mkdirSync(dirname(work), { recursive: true });
const source = dirname(require.resolve('better-sqlite3/package.json'));
// copy the sources, not the Node build
cpSync(source, work, { recursive: true, filter: (p) => !p.startsWith(join(source, 'build')) });
const gyp = require.resolve('node-gyp/bin/node-gyp.js');
const r = spawnSync(
  process.execPath,
  [
    gyp,
    'rebuild',
    '--release',
    `--target=${electronVersion}`,
    `--arch=${process.arch}`,
    '--dist-url=https://electronjs.org/headers',
    '--runtime=electron',
  ],
  { cwd: work, stdio: 'inherit' },
);
if (r.status !== 0) {
  process.stderr.write(
    'Could not build better-sqlite3 for Electron. Check your C++ toolchain (build-essential / Xcode / VS Build Tools) and network access to electronjs.org.\n',
  );
  process.exit(r.status ?? 1);
}
cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
writeFileSync(stamp, JSON.stringify(want));
process.stdout.write(`Built ${target}\n`);
