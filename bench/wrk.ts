/**
 * Driving a server with `wrk` (Debian's package; C, epoll, LuaJIT scripting) so the load
 * generator is not the bottleneck a Node/undici sender is. The Lua script POSTs JSON bodies
 * that differ per request (a counter in the body) and counts non-2xx answers itself in a
 * `response` hook; `done` prints one machine-readable line that `runWrk` parses.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkResult {
  /** Responses received (any status). */
  requests: number;
  /** Responses with a status outside 200–299 (counted by the Lua `response` hook). */
  non2xx: number;
  /** 2xx responses: acknowledged requests. */
  ok: number;
  seconds: number;
  /** 2xx responses per second. */
  okPerSec: number;
  /** wrk's own socket error counts. */
  errors: { connect: number; read: number; write: number; timeout: number; status: number };
  latencyMs: { p50: number; p99: number; max: number };
}

let wrkPath: string | null | undefined;

/** The wrk binary, or a clear error if it is not installed. */
export function findWrk(): string {
  if (wrkPath === undefined) {
    const r = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
    wrkPath = r.error ? null : 'wrk';
  }
  if (wrkPath === null) throw new Error('wrk not found: apt-get install wrk');
  return wrkPath;
}

/**
 * The Lua script. Each request body carries `ed-<run>-<thread>-<n>` (a run id passed on
 * wrk's command line, the thread, a counter) so no two bodies are equal, across runs too;
 * `non2xx` is a global per thread state, summed in `done`.
 */
export function postJsonScript(): string {
  return `
local threads = {}
local nextId = 0
function setup(thread)
  nextId = nextId + 1
  thread:set("tid", nextId)
  table.insert(threads, thread)
end
n = 0
non2xx = 0
run = "0"
function init(args)
  run = args[1] or "0"
end
local headers = { ["content-type"] = "application/json" }
function request()
  n = n + 1
  local body = '{"type":"eventDate_updated","eventDateId":"ed-' .. run .. '-' .. tid .. '-' .. n ..
    '","eventId":"ev","lastUpdated":' .. n .. ',"changes":[{"key":"actual","value":' .. n .. '}]}'
  return wrk.format("POST", nil, headers, body)
end
function response(status, headers, body)
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
end
function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do bad = bad + t:get("non2xx") end
  local e = summary.errors
  io.write(string.format(
    "MB_WRK requests=%d duration_us=%d non2xx=%d connect=%d read=%d write=%d timeout=%d status=%d p50_us=%d p99_us=%d max_us=%d\\n",
    summary.requests, summary.duration, bad, e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`;
}

let scriptFile: string | undefined;
let runs = 0;

/** Run wrk against `url` for `seconds` (bounded: wrk stops itself; a kill timer backs it up). */
export function runWrk(opts: {
  url: string;
  seconds: number;
  connections: number;
  threads?: number;
  /** Optional CPU list for `taskset -c` (e.g. "0"); ignored if taskset is missing. */
  cpus?: string;
}): Promise<WrkResult> {
  const bin = findWrk();
  scriptFile ??= join(mkdtempSync(join(tmpdir(), 'mb-wrk-')), 'post.lua');
  writeFileSync(scriptFile, postJsonScript());
  const args = [
    `-t${opts.threads ?? 1}`,
    `-c${opts.connections}`,
    `-d${opts.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    scriptFile,
    opts.url,
    '--',
    `${process.pid}-${++runs}`,
  ];
  const useTaskset =
    opts.cpus !== undefined && !spawnSync('taskset', ['-V'], { encoding: 'utf8' }).error;
  const [cmd, argv] = useTaskset
    ? ['taskset', ['-c', opts.cpus as string, bin, ...args]]
    : [bin, args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), (opts.seconds + 30) * 1000);
    child.on('error', (e) => {
      clearTimeout(killer);
      reject(e);
    });
    child.on('exit', (code) => {
      clearTimeout(killer);
      const m = /MB_WRK (.*)/.exec(out);
      if (code !== 0 || !m)
        return reject(new Error(`wrk failed (exit ${code}): ${err.trim() || out.trim()}`));
      const f = Object.fromEntries(
        (m[1] as string)
          .trim()
          .split(' ')
          .map((kv) => {
            const [k, v] = kv.split('=');
            return [k as string, Number(v)];
          }),
      ) as Record<string, number>;
      const g = (k: string) => f[k] ?? NaN;
      const seconds = g('duration_us') / 1e6;
      const ok = g('requests') - g('non2xx');
      resolve({
        requests: g('requests'),
        non2xx: g('non2xx'),
        ok,
        seconds,
        okPerSec: ok / seconds,
        errors: {
          connect: g('connect'),
          read: g('read'),
          write: g('write'),
          timeout: g('timeout'),
          status: g('status'),
        },
        latencyMs: { p50: g('p50_us') / 1000, p99: g('p99_us') / 1000, max: g('max_us') / 1000 },
      });
    });
  });
}
