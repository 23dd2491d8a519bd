/**
 * What the long desk tests (desk-in-a-box, secret-rotation) build alike: their cleanups, the
 * service with the desk's keys, and Redis with the shipped ACL and the relay's password in
 * a file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { killChildren } from '../chaos/processes.js';
import { RELAY_ACL_USER, startShippedAclRedis } from '../relay/redis-server.js';
import { spawnCli, type Proc } from './processes.js';

/** Cleanups run after the suite, last first, each given at most 10 s; children killed first. */
export function suiteCleanups(): (() => Promise<unknown>)[] {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    killChildren();
    for (const c of cleanups.splice(0).reverse())
      await Promise.race([c().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
  }, 60_000);
  return cleanups;
}

/** The service (no autoplay) holding the desk's keys, trusting the test's certificate. */
export async function spawnKeyedService(
  seed: number,
  keys: { id: string; secret: string },
  trust: NodeJS.ProcessEnv,
  cleanups: (() => Promise<unknown>)[],
): Promise<Proc> {
  const sim = await spawnCli(
    'src/simulator/cli.ts',
    ['--port', '0', '--seed', String(seed), '--speed', '0', '--client-id', keys.id,
      '--client-secret', keys.secret], // prettier-ignore
    trust,
    /^simulator listening on (\S+)\n/,
  );
  cleanups.push(async () => sim.child.kill('SIGKILL'));
  return sim;
}

/** Redis with the shipped ACL; the relay's password in a file under `dir`. */
export async function shippedRedis(
  dir: string,
  password: string,
  cleanups: (() => Promise<unknown>)[],
): Promise<{
  redis: Awaited<ReturnType<typeof startShippedAclRedis>>;
  redisEnv: NodeJS.ProcessEnv;
  onRedis: string[];
}> {
  const redis = await startShippedAclRedis(password);
  cleanups.push(() => redis.stop());
  const passwordFile = join(dir, 'redis-password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  return {
    redis,
    redisEnv: { MACROBELL_REDIS_USERNAME: RELAY_ACL_USER },
    onRedis: ['--redis', redis.url, '--redis-password-file', passwordFile],
  };
}
