// Install scripts run only for the dependencies package.json approves (`allowScripts`).
// `.npmrc` sets ignore-scripts, so `npm install` / `npm ci` run no dependency's script at
// all (npm 11's allowScripts alone stopped nothing); this then runs the approved ones, by
// name, with `npm rebuild`. A dependency with an install script that is not approved is
// never run: `--check` (CI) fails on it, so a new one is reviewed before it lands.
//
//   node scripts/approved-scripts.mjs           build what is approved, once per install
//   node scripts/approved-scripts.mjs --check   also fail on an unapproved install script
//
// `ensureApprovedScripts()` is what `npm start` and `npm test` call: it does the work only
// when the install or the Node.js version changed since the last time (a stamp file).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampOf = (root) => join(root, 'node_modules', '.macrobell-approved-scripts');

/** Packages of the lockfile that declare an install script, split by approval. */
export function installScripts(root = repo) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const allowed = new Set(
    Object.entries(pkg.allowScripts ?? {})
      .filter(([, ok]) => ok === true)
      .map(([name]) => name),
  );
  const approved = [];
  const unapproved = [];
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (!entry.hasInstallScript || !path.startsWith('node_modules/')) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!existsSync(join(root, path))) continue; // an optional package not for this platform
    (allowed.has(name) ? approved : unapproved).push(name);
  }
  return { approved: [...new Set(approved)], unapproved: [...new Set(unapproved)] };
}

/** What the stamp records: the lockfile and the Node.js ABI the modules were built for. */
function stampValue(root) {
  const lock = readFileSync(join(root, 'package-lock.json'));
  return `${createHash('sha256').update(lock).digest('hex')} node-abi-${process.versions.modules}\n`;
}

/** Runs the approved install scripts; returns an exit code. */
export function runApprovedScripts({ check = false, root = repo } = {}) {
  const { approved, unapproved } = installScripts(root);
  if (unapproved.length > 0) {
    const list = unapproved.join(', ');
    process.stderr.write(
      `Install scripts not approved, so not run: ${list}.\n` +
        `Review each one; if it must run, add it to "allowScripts" in package.json.\n`,
    );
    if (check) return 1;
  }
  if (approved.length === 0) return 0;
  process.stdout.write(`Running the approved install scripts: ${approved.join(', ')}…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    ['rebuild', '--ignore-scripts=false', '--foreground-scripts', ...approved],
    {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    },
  );
  if (r.status !== 0) {
    process.stderr.write(
      'Building the native modules failed. On Debian/Ubuntu they need:\n' +
        '  sudo apt-get install -y build-essential python3 libsecret-1-dev\n',
    );
    return r.status ?? 1;
  }
  writeFileSync(stampOf(root), stampValue(root));
  return 0;
}

/** Runs the approved scripts unless this install (and this Node.js) already ran them. */
export function ensureApprovedScripts(root = repo) {
  const stamp = stampOf(root);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === stampValue(root)) return 0;
  return runApprovedScripts({ root });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.exit(runApprovedScripts({ check: process.argv.includes('--check') }));
