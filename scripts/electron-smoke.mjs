// Runs the packaged app's own smoke test (`Macrobell --smoke-test`, see
// src/main/electron/smoke-test.ts) on the package `npm run dist` left in release/, and
// fails unless it exits 0 with its JSON line. CI runs it under xvfb-run on Linux.
//   node scripts/electron-smoke.mjs [path/to/executable]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The app gives up by itself after 60 s; this only catches an app that hangs anyway. */
export const RUNNER_TIMEOUT_MS = 90_000;

/** Where electron-builder puts the unpacked app for this platform (first that exists). */
export function packagedExecutables(releaseDir, platform, arch) {
  if (platform === 'darwin')
    return ['mac-universal', `mac-${arch}`, 'mac'].map((d) =>
      join(releaseDir, d, 'Macrobell.app', 'Contents', 'MacOS', 'Macrobell'),
    );
  if (platform === 'win32')
    return [arch === 'x64' ? 'win-unpacked' : `win-${arch}-unpacked`, 'win-unpacked'].map((d) =>
      join(releaseDir, d, 'Macrobell.exe'),
    );
  return [arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`, 'linux-unpacked'].map((d) =>
    join(releaseDir, d, 'macrobell'),
  );
}

/** Run `exe --smoke-test`; resolves with its exit code and the report it wrote. */
export function runSmoke(exe, { timeoutMs = RUNNER_TIMEOUT_MS, env = process.env } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'macrobell-smoke-run-'));
  const output = join(dir, 'smoke.json');
  // A GUI app's stdout is not always wired to the console (Windows): the report also goes
  // to a file.
  const child = spawn(exe, ['--smoke-test', `--smoke-output=${output}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, ELECTRON_RUN_AS_NODE: undefined, ELECTRON_ENABLE_LOGGING: '1' },
  });
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const done = (code, error) => {
      clearTimeout(timer);
      const report = existsSync(output) ? readFileSync(output, 'utf8').trim() : null;
      rmSync(dir, { recursive: true, force: true });
      resolvePromise({ code, report, error });
    };
    child.on('error', (err) => done(null, err.message));
    child.on('exit', (code, signal) =>
      done(code, signal ? `killed by ${signal} (no answer within ${timeoutMs / 1000} s)` : null),
    );
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const exe =
    process.argv[2] ??
    packagedExecutables(join(root, 'release'), process.platform, process.arch).find(existsSync);
  if (!exe || !existsSync(exe)) {
    process.stderr.write('No packaged app in release/: run `npm run dist` first.\n');
    process.exit(1);
  }
  process.stdout.write(`Smoke-testing ${exe}\n`);
  const { code, report, error } = await runSmoke(exe);
  if (report) process.stdout.write(`${report}\n`);
  if (code !== 0 || !report) {
    process.stderr.write(`Smoke test failed: ${error ?? `exit code ${code}`}\n`);
    process.exit(1);
  }
  process.stdout.write('Smoke test passed\n');
}
