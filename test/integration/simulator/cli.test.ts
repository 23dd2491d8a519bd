// @clock any-day — it reads the demo schedule of the day it runs; CI runs it on the clock matrix
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait.js';

const root = resolve(import.meta.dirname, '../../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const cli = resolve(root, 'src/simulator/cli.ts');
const children: ChildProcessWithoutNullStreams[] = [];

function run(args: string[]): ChildProcessWithoutNullStreams {
  if (!existsSync(tsx)) throw new Error(`tsx is missing at ${tsx}: run \`npm install\` in ${root}`);
  const child = spawn(tsx, [cli, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  children.push(child);
  return child;
}

function exit(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((r) => {
    if (child.exitCode !== null) return r(child.exitCode);
    child.once('exit', (code) => r(code));
  });
}

function collect(child: ChildProcessWithoutNullStreams, stream: 'stdout' | 'stderr') {
  let text = '';
  child[stream].on('data', (c: Buffer) => (text += c.toString('utf8')));
  return () => text;
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('simulator CLI', () => {
  it('prints the listening line first, serves, and exits cleanly on SIGTERM', async () => {
    const child = run(['--port', '0', '--seed', 'cli', '--speed', '2']);
    const out = collect(child, 'stdout');
    const err = collect(child, 'stderr');
    await waitFor(() => out().includes('\n') || child.exitCode !== null, 'the first line', 25_000);
    const first = out().split('\n')[0] ?? '';
    expect(first, `stderr: ${err()}`).toMatch(/^simulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = first.slice('simulator listening on '.length);
    const state = await fetch(`${url}/_sim/state`);
    expect(state.status).toBe(200);
    // a fast demo keeps the real clock and brings its releases closer (fast-demo.ts)
    expect(await state.json()).toMatchObject({ speed: 1, pace: 2 });
    // the summary names the URLs
    await waitFor(() => out().includes(`${url}/auth/v2/token`), 'the summary');
    child.kill('SIGTERM');
    expect(await exit(child)).toBe(0);
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--port', '1.5'], /--port/],
    [['--speed', '-1'], /--speed/],
    [['--bogus'], /bogus/],
  ])('rejects bad flags %j with exit code 2', async (args, message) => {
    const child = run(args);
    const err = collect(child, 'stderr');
    expect(await exit(child)).toBe(2);
    expect(err()).toMatch(message);
    expect(err()).toMatch(/Usage/);
  });
});
