/** A throwaway redis-server for the Redis benchmarks: free port, temp data dir, fsync always. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

export async function startRedisProc(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await new Promise<number>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'mb-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'],
    { stdio: 'ignore' },
  ); // prettier-ignore
  child.once('error', () => undefined);
  const url = `redis://127.0.0.1:${port}/0`;
  for (let i = 0; ; i++) {
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const ok = await probe
      .connect()
      .then(() => true)
      .catch(() => false);
    probe.disconnect();
    if (ok) break;
    if (i > 100 || child.exitCode !== null)
      throw new Error('redis-server did not start: apt-get install redis-server');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}
