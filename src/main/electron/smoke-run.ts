/**
 * The smoke test's host side: a throw-away data folder (set before the single-instance
 * lock, which lives there, so a running Macrobell is neither touched nor in the way), the
 * real shell on demo data, the report on stdout (and a file), cleanup, an exit code.
 */
import { app } from 'electron';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runShell, type Shell, type ShellDeps } from './app.js';
import { STOP_TIMEOUT_MS } from './shell-parts.js';
import { electronProbes, type ProbeTargets } from './smoke-probes.js';
import { runSmokeChecks, type SmokeOptions, type SmokeReport } from './smoke-test.js';
import { messageOf } from '../../shared/error-message.js';

export async function runSmokeTest(
  opts: SmokeOptions,
  deps: ShellDeps = {},
  /** Tests: a shorter deadline, a stand-in keychain. */
  test: { timeoutMs?: number; keychain?: ProbeTargets['keychain'] } = {},
): Promise<{ code: number; report: SmokeReport }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'macrobell-smoke-'));
  app.setPath('userData', dataDir);
  let shell: Shell | null = null;
  const report = await runSmokeChecks(
    async () => {
      const s = (shell = await runShell({ ...deps, smoke: true }));
      if (!s) throw new Error('another Macrobell holds the single-instance lock');
      return electronProbes({
        window: () => s.window.current(),
        trayExists: () => s.tray.exists(),
        nativeBinding: s.nativeBinding,
        packaged: app.isPackaged,
        ...(test.keychain ? { keychain: test.keychain } : {}),
      });
    },
    {
      ...(test.timeoutMs ? { timeoutMs: test.timeoutMs } : {}),
      versions: {
        app: app.getVersion(),
        electron: process.versions.electron,
        chrome: process.versions.chrome,
        node: process.versions.node,
        abi: process.versions.modules,
        platform: `${process.platform}-${process.arch}`,
      },
    },
  );
  const line = `${JSON.stringify(report)}\n`;
  process.stdout.write(line);
  if (opts.outputFile) {
    try {
      writeFileSync(opts.outputFile, line);
    } catch (err) {
      process.stderr.write(`Could not write ${opts.outputFile}: ${messageOf(err)}\n`);
    }
  }
  // Close the database before removing its folder (Windows keeps open files).
  const stopped = (shell as Shell | null)?.service.stop().catch(() => undefined);
  await Promise.race([stopped, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS).unref())]);
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  return { code: report.ok ? 0 : 1, report };
}
