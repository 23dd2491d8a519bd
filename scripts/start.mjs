// `npm start`: the desktop app. With the Electron binary installed and a display, it
// builds the SQLite module for Electron's ABI (first run only), builds the app and
// launches it — in demo mode when no API keys are configured. Where Electron cannot run
// (its download was skipped, or a headless Linux box), it says so and opens the same UI
// as a local web dashboard in the same auto mode (saved keys or a desk relay: live; none:
// the demo), so `npm install && npm start` always gives a working app. `--help` prints usage.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureApprovedScripts } from './approved-scripts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The Electron executable, or null when the package was installed without its binary. */
function electronBinary() {
  try {
    const path = require('electron'); // the package's main exports the binary's path
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Run a child in the foreground: forward Ctrl+C and friends, exit with its code. */
function foreground(cmd, args, env = process.env) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('error', (err) => {
    process.stderr.write(`Could not start ${cmd}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
  process.stdout.write(
    'Usage: npm start [-- flags]\n' +
      '  The desktop app: live with saved API keys or a desk relay, else demo data from the\n' +
      '  built-in simulator. Where Electron cannot run, the same app as a local web dashboard\n' +
      "  (the flags below are the web host's; the desktop app takes none).\n\n",
  );
  foreground(process.execPath, [join(root, 'scripts', 'web.mjs'), '--help']);
} else {
  if (ensureApprovedScripts() !== 0) process.exit(1);
  start();
}

function start() {
  const electron = electronBinary();
  const headless =
    process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

  if (electron && !headless) {
    process.stdout.write('Building the SQLite module for Electron (first run only)…\n');
    run([join(root, 'scripts', 'electron-native.mjs')]);
    run([join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
    // Set by some tools (and VS Code tasks): it would make Electron behave as plain Node.
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    foreground(electron, ['.', ...process.argv.slice(2)], env);
  } else {
    const why = !electron
      ? 'The Electron binary is not installed here (npm install ran with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or the download failed; to get the desktop app, run `npm rebuild electron --ignore-scripts=false` without that variable on a machine that can reach GitHub).'
      : 'There is no display (DISPLAY and WAYLAND_DISPLAY are unset), so the desktop app cannot open a window.';
    process.stdout.write(
      `${why} Starting Macrobell as a local web dashboard instead: the same app, in your browser — live with your saved API keys (or a desk relay), else demo data from the built-in simulator. Open the link printed below; stop with Ctrl+C.\n\n`,
    );
    foreground(process.execPath, [join(root, 'scripts', 'web.mjs'), ...process.argv.slice(2)]);
  }
}
