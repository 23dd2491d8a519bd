/** Child processes for the benchmarks: the real relay and the pass-through baseline. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Proc {
  url: string;
  child: ChildProcess;
  stop(): void;
}

export function startProc(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve({ url: m[1] as string, child, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

export const RELAY_SECRET = 'bench-secret';
export const RELAY_TOKEN = 'bench-token';

export function startRelayProc(dataDir: string): Promise<Proc> {
  return startProc(
    ['src/relay/cli.ts', '--port', '0', '--data', dataDir],
    { MACROBELL_RELAY_SECRET: RELAY_SECRET, MACROBELL_RELAY_TOKEN: RELAY_TOKEN, LOG_LEVEL: 'warn' },
    /relay listening on (\S+)/,
  );
}

export function startPassthroughProc(): Promise<Proc> {
  return startProc(['bench/passthrough-relay.ts'], {}, /passthrough listening on (\S+)/);
}
