/** A real redis-server for the relay tests: a free loopback port, a data folder in a temp dir. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import Redis, { type RedisOptions } from 'ioredis';
import { tempDir, waitFor } from './helpers.js';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  child: ChildProcess;
  /** Start it again on the same port and data folder (after a kill). */
  restart(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The environment without libfaketime: the clock matrix runs tests under `faketime`, and
 * redis-server hangs at start under it. Redis keeps the real time; the tests never read it.
 */
export function withoutFakeClock(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of Object.keys(out))
    if (k === 'LD_PRELOAD' || k.startsWith('FAKETIME')) delete out[k];
  return out;
}

export function requireRedisServer(): void {
  if (
    existsSync(REDIS_SERVER) &&
    spawnSync(REDIS_SERVER, ['--version'], { env: withoutFakeClock() }).status === 0
  )
    return;
  throw new Error(
    `redis-server is needed for the relay's Redis tests (${REDIS_SERVER} not found): ` +
      'install it with `sudo apt-get install redis-server` (Debian/Ubuntu) or `brew install redis`.',
  );
}

export interface StartRedisOptions {
  durable?: boolean;
  /** More redis-server arguments (requirepass, ACL users, TLS). */
  extraArgs?: string[];
  /** TLS only: listen with --tls-port instead of the plain port; the URL is rediss://. */
  tls?: boolean;
  /** How the readiness probe connects (a password, a CA). */
  probe?: RedisOptions;
}

export async function startRedis(opts: StartRedisOptions = { durable: true }): Promise<TestRedis> {
  requireRedisServer();
  const port = await freePort();
  const dir = tempDir('mb-redis-');
  const listen = opts.tls ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)];
  const args = [
    ...listen, '--bind', '127.0.0.1', '--dir', dir, '--save', '',
    '--appendonly', opts.durable === false ? 'no' : 'yes',
    '--appendfsync', opts.durable === false ? 'everysec' : 'always',
    ...(opts.extraArgs ?? []),
  ]; // prettier-ignore
  const url = `${opts.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}/0`;
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => c.once('exit', () => r()));
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(REDIS_SERVER, args, { stdio: 'ignore', env: withoutFakeClock() });
    await waitFor(async () => {
      const probe = new Redis(url, { ...opts.probe, lazyConnect: true, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    }, `redis-server on port ${port}`);
    return child;
  };
  const r: TestRedis = {
    url,
    port,
    dir,
    child: await launch(),
    async restart() {
      r.child = await launch();
    },
    async kill(signal = 'SIGKILL') {
      r.child.kill(signal);
      await exited(r.child);
    },
    async stop() {
      r.child.kill('SIGTERM');
      await exited(r.child);
    },
  };
  return r;
}

/** The relay's ACL user, as deploy/redis.acl.example names it. */
export const RELAY_ACL_USER = 'macrobell-relay';

/**
 * redis-server loaded with the shipped ACL file (deploy/redis.acl.example, the relay user's
 * password put in for CHANGE-ME, the operator's for CHANGE-ME-OPERATOR), durable (`appendfsync always`), its log in `log()`.
 * `defaultLine` swaps the shipped default user's line (the old one, to show what it lost);
 * `admin` adds an operator's user with every right; `extraArgs` go to redis-server.
 */
export async function startShippedAclRedis(
  relayPassword: string,
  opts: {
    defaultLine?: string;
    admin?: { username: string; password: string };
    /** The shipped operator user's password (else a random one). */
    operatorPassword?: string;
    extraArgs?: string[];
  } = {},
): Promise<TestRedis & { log: () => string }> {
  const conf = mkdtempSync(join(tmpdir(), 'mb-redis-acl-'));
  const shipped = readFileSync('deploy/redis.acl.example', 'utf8');
  if (!shipped.includes('>CHANGE-ME')) throw new Error('the shipped ACL file has no >CHANGE-ME');
  const [defaultLine = '', ...rest] = shipped.split('\n');
  const lines = [opts.defaultLine ?? defaultLine, ...rest.filter((l) => l !== '')]
    .map((l) =>
      l.includes('>CHANGE-ME-OPERATOR')
        ? l.replace('>CHANGE-ME-OPERATOR', `>${opts.operatorPassword ?? randomUUID()}`)
        : l.replace('>CHANGE-ME', `>${relayPassword}`),
    )
    .concat(
      opts.admin ? [`user ${opts.admin.username} on >${opts.admin.password} ~* &* +@all`] : [],
    );
  writeFileSync(join(conf, 'redis.acl'), `${lines.join('\n')}\n`);
  const logFile = join(conf, 'redis.log');
  const r = await startRedis({
    durable: true,
    extraArgs: [
      '--aclfile',
      join(conf, 'redis.acl'),
      '--logfile',
      logFile,
      ...(opts.extraArgs ?? []),
    ],
    probe: opts.admin ?? { username: RELAY_ACL_USER, password: relayPassword },
  });
  return Object.assign(r, { log: () => readFileSync(logFile, 'utf8') });
}
