// better-sqlite3 is a V8 addon: Electron needs its own build, while tests, web mode and
// the relay keep the Node build in node_modules. This builds a copy for Electron's ABI
// into .electron-native/ (once per Electron version and arch); the main process loads it
// through better-sqlite3's `nativeBinding` option (src/main/electron/native-binding.ts).
// keytar uses N-API, which is ABI-stable, so the same keytar.node runs under Node and
// Electron and needs no rebuild.
//
//   node scripts/electron-native.mjs [--arch x64|arm64|ia32]   (npm start runs it)
//   electron-builder runs the default export as its beforePack hook, once per target arch
//   (twice for a universal macOS build), so packaging never rebuilds node_modules in place.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export function electronVersion() {
  return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
}

/** Where the build for one platform and arch goes; electron-builder.yml ships it from there. */
export function archBinding(root, platform, arch) {
  return join(root, '.electron-native', `${platform}-${arch}`, 'better_sqlite3.node');
}

/** The build native-binding.ts loads in development (the host's arch). */
export function devBinding(root) {
  return join(root, '.electron-native', 'better_sqlite3.node');
}

function stampOf(file) {
  return `${file}.stamp.json`;
}

function upToDate(file, want) {
  return (
    existsSync(file) && existsSync(stampOf(file)) && readFileSync(stampOf(file), 'utf8') === want
  );
}

function install(from, to, want) {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to);
  writeFileSync(stampOf(to), want);
}

/** What each native module is called in npm and in its build output. */
const MODULES = {
  'better-sqlite3': 'better_sqlite3.node',
  keytar: 'keytar.node',
};

/**
 * Build better-sqlite3 for Electron on this platform and `arch`, unless already built for
 * this Electron version. Returns 'up-to-date' or 'built'; throws with a readable message.
 */
export function buildElectronSqlite(opts = {}) {
  return buildForElectron('better-sqlite3', opts);
}

/**
 * keytar is N-API, so node_modules' build runs under Electron too — but only on the arch
 * it was built on. Packing another arch (an x64 app on an arm64 Mac, either half of a
 * universal app) needs this cross-build, which the afterPack hook puts in the app.
 */
export function buildElectronKeytar(opts = {}) {
  return buildForElectron('keytar', opts);
}

/** Where the keytar build for one platform and arch goes. */
export function archKeytar(root, platform, arch) {
  return join(root, '.electron-native', `${platform}-${arch}`, MODULES.keytar);
}

function buildForElectron(
  name,
  {
    root = projectRoot,
    arch = process.arch,
    platform = process.platform,
    log = (line) => process.stdout.write(`${line}\n`),
  } = {},
) {
  if (platform !== process.platform)
    throw new Error(
      `Cannot build the ${name} module for ${platform} on ${process.platform}: package each platform on its own OS (or CI runner).`,
    );
  const version = electronVersion();
  const want = JSON.stringify({ electron: version, platform, arch });
  const file = MODULES[name];
  const target = join(root, '.electron-native', `${platform}-${arch}`, file);
  // The development copy is better-sqlite3's only: keytar's own build serves the host.
  const devCopy = name === 'better-sqlite3' && arch === process.arch ? devBinding(root) : null;
  if (upToDate(target, want)) {
    if (devCopy && !upToDate(devCopy, want)) install(target, devCopy, want);
    return 'up-to-date';
  }

  log(
    `Building the ${name} module for Electron ${version} (${platform}-${arch}; first run only, about a minute)…`,
  );
  const work = join(root, '.electron-native', 'build', `${platform}-${arch}`, name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(dirname(work), { recursive: true });
  const source = dirname(require.resolve(`${name}/package.json`));
  // Copy the sources, not the Node build.
  cpSync(source, work, {
    recursive: true,
    filter: (p) => !resolve(p).startsWith(join(source, 'build')),
  });
  let gyp;
  try {
    gyp = require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    throw new Error('node-gyp is missing: run `npm install` (it comes with the dev dependencies).');
  }
  const r = spawnSync(
    process.execPath,
    [
      gyp,
      'rebuild',
      '--release',
      `--target=${version}`,
      `--arch=${arch}`,
      '--dist-url=https://electronjs.org/headers',
      '--runtime=electron',
      `--devdir=${join(homedir(), '.electron-gyp')}`,
    ],
    { cwd: work, stdio: 'inherit', env: gypEnv() },
  );
  if (r.status !== 0)
    throw new Error(
      `Could not build ${name} for Electron. Check your C++ toolchain (build-essential and python3 / Xcode command line tools / Visual Studio Build Tools) and network access to electronjs.org.`,
    );
  install(join(work, 'build', 'Release', file), target, want);
  if (devCopy) install(target, devCopy, want);
  rmSync(join(root, '.electron-native', 'build'), { recursive: true, force: true });
  log(`Built ${target}`);
  return 'built';
}

/** The environment without npm's node-gyp settings, which would point it at Node's headers. */
function gypEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|target_arch)$/i.test(key))
      delete env[key];
  return env;
}

// electron-builder's Arch enum (builder-util), by value.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

export const archName = (context) => ARCH_NAMES[context.arch] ?? String(context.arch);

/** electron-builder beforePack hook: the modules for the arch being packed. */
export default async function beforePack(context) {
  const arch = archName(context);
  if (arch === 'universal') return; // merged from the x64 and arm64 halves, each packed first
  buildElectronSqlite({ arch, platform: context.electronPlatformName });
  if (arch !== process.arch) buildElectronKeytar({ arch, platform: context.electronPlatformName });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const i = process.argv.indexOf('--arch');
  try {
    buildElectronSqlite(i > 0 ? { arch: process.argv[i + 1] } : {});
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
