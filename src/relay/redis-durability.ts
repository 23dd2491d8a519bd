/**
 * What a Redis server can promise for an acknowledged webhook, read from its own settings
 * at start: an fsync'd append-only file (`appendonly yes` + `appendfsync always`), or a
 * replica that confirms each write (`WAIT`). Anything less refuses to start unless the
 * operator accepts it with `--redis-durability relaxed`.
 */
import type Redis from 'ioredis';

export type DurabilityMode = 'strict' | 'relaxed';

export interface Durability {
  /** Replicas each append waits for (0 = the fsync'd AOF is the promise). */
  waitReplicas: number;
  /** Plain words for the startup line and /healthz. */
  describe: string;
  relaxed: boolean;
}

async function configValue(redis: Redis, name: string): Promise<string | null> {
  try {
    const reply = (await redis.call('CONFIG', 'GET', name)) as string[];
    return reply[1] ?? null;
  } catch {
    return null; // managed services often disable CONFIG: fall back to the replica check
  }
}

async function connectedReplicas(redis: Redis): Promise<number> {
  const info = await redis.info('replication');
  return Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
}

export async function checkDurability(redis: Redis, mode: DurabilityMode): Promise<Durability> {
  const appendonly = await configValue(redis, 'appendonly');
  const appendfsync = await configValue(redis, 'appendfsync');
  if (appendonly === 'yes' && appendfsync === 'always')
    return { waitReplicas: 0, describe: 'appendfsync always', relaxed: false };
  const replicas = await connectedReplicas(redis);
  if (replicas > 0) return { waitReplicas: 1, describe: 'WAIT for 1 replica', relaxed: false };
  const settings = `appendonly=${appendonly ?? 'unknown'}, appendfsync=${appendfsync ?? 'unknown'}, no replica connected`;
  if (mode === 'relaxed')
    return {
      waitReplicas: 0,
      describe: `relaxed (${settings}): webhooks acknowledged shortly before a Redis crash can be lost`,
      relaxed: true,
    };
  throw new Error(
    `Redis cannot keep the relay's promise that an acknowledged webhook is stored (${settings}). ` +
      'Set "appendonly yes" and "appendfsync always" on the Redis server, or give it a replica, ' +
      'or start the relay with --redis-durability relaxed to accept that risk.',
  );
}
