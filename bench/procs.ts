/** Child processes for the benchmarks: the real relay and the pass-through baseline. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Proc {
  url: string;
  child: ChildProcess;
  stop(): void;
  /** SIGTERM, then wait for the exit (bounded: SIGKILL after 15 s). */
  stopAndWait(): Promise<void>;
}

/** Optional placement of a child: `cpus` pins it with `taskset -c` (e.g. "1"). */
export interface ProcOptions {
  cpus?: string;
  /** Extra Node flags, e.g. `--cpu-prof` for profiling a bench run. */
  nodeArgs?: string[];
}

export function startProc(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
  opts: ProcOptions = {},
): Promise<Proc> {
  const node = [...(opts.nodeArgs ?? []), '--import', 'tsx', ...args];
  const [cmd, argv] =
    opts.cpus !== undefined
      ? ['taskset', ['-c', opts.cpus, process.execPath, ...node]]
      : [process.execPath, node];
  const child = spawn(cmd, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m)
        resolve({
          url: m[1] as string,
          child,
          stop: () => child.kill('SIGTERM'),
          stopAndWait: () => stopAndWait(child),
        });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

export const RELAY_SECRET = 'bench-secret';
export const RELAY_TOKEN = 'bench-token';

export function startRelayProc(
  dataDir: string,
  opts: ProcOptions & { redisUrl?: string } = {},
): Promise<Proc> {
  const redis = opts.redisUrl ? ['--redis', opts.redisUrl] : [];
  return startProc(
    // The fan-out figures hold up to 10,000 streams (the flag's most) of the one legacy
    // token (capped at 100 by default).
    [
      'src/relay/cli.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      ...redis,
      '--max-streams-per-user',
      '10000',
    ],
    { MACROBELL_RELAY_SECRET: RELAY_SECRET, MACROBELL_RELAY_TOKEN: RELAY_TOKEN, LOG_LEVEL: 'warn' },
    /relay listening on (\S+)/,
    opts,
  );
}

/** The ingest baseline: bench/bare-server.ts, a 204-and-nothing-else server. */
export function startBareProc(opts: ProcOptions = {}): Promise<Proc> {
  return startProc(['bench/bare-server.ts'], {}, /bare listening on (\S+)/, opts);
}

export function startPassthroughProc(): Promise<Proc> {
  return startProc(['bench/passthrough-relay.ts'], {}, /passthrough listening on (\S+)/);
}

function stopAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
