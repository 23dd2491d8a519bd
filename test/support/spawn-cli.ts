/** A CLI of this repo as a child process (tsx), ready when its first stdout line says so. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
// @ts-expect-error -- a plain ES module of the test runner, without types
import { CLI_BUNDLES } from '../../scripts/cli-bundles.mjs';

export interface Proc {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

const root = resolve(import.meta.dirname, '../..');
/** The CLIs `npm test` builds once per run, by script (scripts/cli-bundles.mjs). */
const BUNDLED: Record<string, string> = CLI_BUNDLES;
/**
 * Node's arguments that run `script`: its bundle when `npm test` built one (a start costs
 * about a quarter of the CPU), else the sources under tsx (a file run alone with vitest).
 */
export function nodeArgs(script: string): string[] {
  const name = isAbsolute(script) ? relative(root, script) : script;
  const dir = process.env.MACROBELL_TEST_CLI_DIR;
  const bundle = dir && BUNDLED[name] ? join(dir, BUNDLED[name]) : null;
  if (bundle && !existsSync(bundle)) throw new Error(`the test CLI bundle ${bundle} is missing`);
  return bundle ? [bundle] : ['--import', 'tsx', script];
}

/**
 * Spawns `script` and resolves with the URL `firstLine` captures from stdout; rejects with
 * its stderr when it exits first or is not up within `timeoutMs` (then it is killed).
 */
export function spawnCli(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  firstLine: RegExp,
  opts: { name?: string; timeoutMs?: number } = {},
): Promise<Proc> {
  const name = opts.name ?? script;
  const child = spawn(process.execPath, [...nodeArgs(script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in time: ${err}`));
    }, opts.timeoutMs ?? 45_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = firstLine.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] as string, stdout: () => out, stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code}: ${err}`));
    });
  });
}

/** Resolves with the child's exit code once it has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once('exit', (code) => r(code)));
}
