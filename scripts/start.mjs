// `npm start`: the desktop app. With the Electron binary installed and a display, it
// builds the SQLite module for Electron's ABI (first run only), builds the app and
// launches it — in demo mode when no API keys are configured. Where Electron cannot run
// (its download was skipped, or a headless Linux box), it says so and opens the same UI
// as a local web dashboard instead, so `npm install && npm start` always gives a demo.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const path = require('electron'); // the package exports the binary's path
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const electron = electronBinary();
const headless =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

if (electron && !headless) {
  run(process.execPath, [join(root, 'scripts', 'electron-native.mjs')]);
  run(process.execPath, [
    join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
    'build',
  ]);
  const child = spawn(electron, ['.', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const why = !electron
    ? 'The Electron binary is not installed here (npm was run with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed; `npx electron --version` tells).'
    : 'There is no display (DISPLAY/WAYLAND_DISPLAY are unset).';
  process.stdout.write(
    `${why}\nStarting Macrobell as a local web dashboard instead — the same app, in your browser.\nOpen the "web UI on" link below. Stop with Ctrl+C.\n\n`,
  );
  const child = spawn(
    process.execPath,
    [join(root, 'scripts', 'web.mjs'), ...process.argv.slice(2)],
    { cwd: root, stdio: 'inherit' },
  );
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}
