/**
 * The process harness of the chaos tests: each part (simulator, relay, app core) is its
 * own Node process on loopback, speaking JSON lines on stdout that the test reads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { waitFor } from '../../support/wait.js';
import { nodeArgs } from '../../support/spawn-cli.js';

export interface Line {
  at: number;
  t: string;
  [k: string]: unknown;
}

export interface LineProcess {
  child: ChildProcess;
  lines: Line[];
  stderr: () => string;
  /** Write one JSON command line to the process's stdin. */
  send: (cmd: Record<string, unknown>) => void;
}

/** Every child started here, for the suite's afterAll to kill. */
export const children: ChildProcess[] = [];

export function killChildren(): void {
  children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
}

export function spawnLines(args: string[], env: NodeJS.ProcessEnv): LineProcess {
  const [script = '', ...rest] = args;
  const child = spawn(process.execPath, [...nodeArgs(script), ...rest], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: Line[] = [];
  let raw = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.on('data', (d: Buffer) => {
    raw += d.toString();
    let nl: number;
    while ((nl = raw.indexOf('\n')) >= 0) {
      const text = raw.slice(0, nl);
      raw = raw.slice(nl + 1);
      try {
        lines.push(JSON.parse(text) as Line);
      } catch {
        lines.push({ at: Date.now(), t: 'text', text });
      }
    }
  });
  const send = (cmd: Record<string, unknown>) => child.stdin?.write(`${JSON.stringify(cmd)}\n`);
  return { child, lines, stderr: () => err, send };
}

export const until = <T>(check: () => T, what: string, timeoutMs = 30_000) =>
  waitFor(check, what, timeoutMs);

export const sleepUntil = (at: number) =>
  new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type Control = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** The simulator CLI as a process, and a client of its control API. */
export async function spawnSimulator(
  keys: { id: string; secret: string },
  seed: string,
): Promise<{ url: string; control: Control; proc: LineProcess }> {
  const proc = spawnLines(
    [
      'src/simulator/cli.ts',
      '--port',
      '0',
      '--seed',
      seed,
      '--client-id',
      keys.id,
      '--client-secret',
      keys.secret,
    ],
    {},
  );
  const line = await until(
    () => proc.lines.find((l) => l.t === 'text' && /listening on/.test(String(l.text))),
    'the simulator',
  );
  const url = /listening on (\S+)/.exec(String(line.text))?.[1] as string;
  const control: Control = async <T>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return { url, control, proc };
}
