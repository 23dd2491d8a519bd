// `npm test`: every test — vitest unit + integration, then end-to-end in Chromium — inside a
// private D-Bus session with a throw-away, unlocked gnome-keyring, so the real-keychain test
// runs without touching the user's own keyring. Missing prerequisites fail with the fix.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const which = (cmd) =>
  spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();

if (!process.env.MACROBELL_TEST_SESSION) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const missing = [];
  if (!existsSync(chromium)) missing.push(`Chromium (${chromium}) for the end-to-end tests`);
  if (process.platform === 'linux') {
    if (!which('dbus-run-session'))
      missing.push('dbus-run-session (package dbus-x11 / dbus) for the keychain test');
    if (!which('gnome-keyring-daemon'))
      missing.push('gnome-keyring-daemon (package gnome-keyring) for the keychain test');
  }
  if (missing.length > 0) {
    console.error(
      `npm test needs:\n  - ${missing.join('\n  - ')}\nInstall them with:\n  sudo apt-get install -y chromium gnome-keyring dbus-x11 libsecret-1-dev\n(or set CHROMIUM_PATH to another Chromium).`,
    );
    process.exit(1);
  }
  if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS) {
    // Re-run inside a private session bus with a fresh keyring, unlocked with a test password.
    const home = mkdtempSync(join(tmpdir(), 'macrobell-test-keyring-'));
    const inner = `echo -n macrobell-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node scripts/test.mjs ${args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')}`;
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, XDG_DATA_HOME: home, MACROBELL_TEST_SESSION: '1' },
    });
    process.exit(r.status ?? 1);
  }
}

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = (label, argv) => {
  console.log(`\n▶ ${label}`);
  return (
    spawnSync(process.execPath, argv, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, MACROBELL_TEST_SESSION: '1' },
    }).status ?? 1
  );
};

// Tests must leave the work tree as they found it (no tracked file rewritten, nothing new).
const gitStatus = () => {
  const r = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : null;
};
const insideGit =
  spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout?.trim() === 'true';
const statusBefore = insideGit ? gitStatus() : null;

let failed = 0;
failed += run('unit and integration tests', [vitest, 'run', ...args]) === 0 ? 0 : 1;
if (args.length === 0) {
  failed +=
    run('building the web UI for the end-to-end tests', [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ]) === 0
      ? 0
      : 1;
  failed +=
    run('end-to-end tests (Chromium)', [vitest, 'run', '--config', 'vitest.e2e.config.ts']) === 0
      ? 0
      : 1;
}
if (statusBefore !== null) {
  const statusAfter = gitStatus();
  if (statusAfter !== statusBefore) {
    console.error(
      `\n✘ the tests changed the work tree (git status --porcelain):\nbefore:\n${statusBefore || '  (clean)\n'}after:\n${statusAfter}`,
    );
    failed++;
  }
}
console.log(failed === 0 ? '\n✔ all test suites passed' : `\n✘ ${failed} test suite(s) failed`);
process.exit(failed === 0 ? 0 : 1);
