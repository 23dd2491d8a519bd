/**
 * What a Redis server can promise for an acknowledged webhook, read from its own settings
 * at start: an fsync'd append-only file (`appendonly yes` + `appendfsync always`), or a
 * replica that confirms each write (`WAIT`). Anything less refuses to start unless the
 * operator accepts it with `--redis-durability relaxed`.
 *
 * The shipped ACL gives the relay no `CONFIG` at all: `CONFIG GET` cannot be narrowed to
 * some settings, and with it the relay's user could read `masterauth` (a replica's
 * password). There the operator states the fsync policy (`--redis-durability aof-always`)
 * and the relay checks what it can see without CONFIG: the append-only file is on and
 * writing (`INFO persistence`), and nobody changed a setting at runtime since the node
 * started (`CONFIG SET` calls in `INFO commandstats`), which it reports on /healthz.
 */
import type Redis from 'ioredis';

export type DurabilityMode = 'strict' | 'relaxed' | 'aof-always';

export interface Durability {
  /** Replicas each append waits for (0 = the fsync'd AOF is the promise). */
  waitReplicas: number;
  /** Plain words for the startup line and /healthz. */
  describe: string;
  relaxed: boolean;
  /**
   * `CONFIG SET` calls Redis counted so far, when the promise is the operator's statement
   * (the relay cannot read the settings): a later, higher count means they may have changed.
   */
  configSetCalls?: number;
}

export const DURABILITY_MODES: readonly DurabilityMode[] = ['strict', 'relaxed', 'aof-always'];

async function configValue(redis: Redis, name: string): Promise<string | null> {
  try {
    const reply = (await redis.call('CONFIG', 'GET', name)) as string[];
    return reply[1] ?? null;
  } catch {
    // The shipped ACL (and managed services) refuse CONFIG: the replica check, or the
    // operator's statement, decides.
    return null;
  }
}

function infoField(info: string, name: string): string | null {
  return new RegExp(`^${name.replace(/[|]/g, '\\|')}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? null;
}

async function connectedReplicas(redis: Redis): Promise<number> {
  return Number(infoField(await redis.info('replication'), 'connected_slaves') ?? 0);
}

/** `CONFIG SET` calls since Redis started (0 when never called: no commandstats line). */
export async function configSetCalls(redis: Redis): Promise<number> {
  const line = infoField(await redis.info('commandstats'), 'cmdstat_config|set');
  return Number(/calls=(\d+)/.exec(line ?? '')?.[1] ?? 0);
}

/** The operator says `appendfsync always`; check the part Redis shows without CONFIG. */
async function statedAofAlways(redis: Redis): Promise<Durability> {
  const persistence = await redis.info('persistence');
  if (infoField(persistence, 'aof_enabled') !== '1')
    throw new Error(
      'Redis has no append-only file (INFO persistence: aof_enabled:0), though ' +
        '--redis-durability aof-always says it runs "appendonly yes" + "appendfsync always". ' +
        'Turn the append-only file on in redis.conf, or give Redis a replica.',
    );
  if (infoField(persistence, 'aof_last_write_status') !== 'ok')
    throw new Error(
      'Redis cannot write its append-only file (INFO persistence: aof_last_write_status is ' +
        'not ok): check its disk.',
    );
  return {
    waitReplicas: 0,
    describe: 'appendfsync always (stated by --redis-durability aof-always; AOF on)',
    relaxed: false,
    configSetCalls: await configSetCalls(redis),
  };
}

export async function checkDurability(redis: Redis, mode: DurabilityMode): Promise<Durability> {
  const appendonly = await configValue(redis, 'appendonly');
  const appendfsync = await configValue(redis, 'appendfsync');
  if (appendonly === 'yes' && appendfsync === 'always')
    return { waitReplicas: 0, describe: 'appendfsync always', relaxed: false };
  const replicas = await connectedReplicas(redis);
  if (replicas > 0) return { waitReplicas: 1, describe: 'WAIT for 1 replica', relaxed: false };
  const readable = appendonly !== null && appendfsync !== null;
  if (mode === 'aof-always' && !readable) return statedAofAlways(redis);
  const settings = readable
    ? `appendonly=${appendonly}, appendfsync=${appendfsync}, no replica connected`
    : 'its settings are not readable (no CONFIG permission), no replica connected';
  if (mode === 'relaxed')
    return {
      waitReplicas: 0,
      describe: `relaxed (${settings}): webhooks acknowledged shortly before a Redis crash can be lost`,
      relaxed: true,
    };
  throw new Error(
    `Redis cannot keep the relay's promise that an acknowledged webhook is stored (${settings}). ` +
      'Set "appendonly yes" and "appendfsync always" on the Redis server, or give it a replica' +
      (readable
        ? ''
        : ", and where the relay's ACL has no CONFIG permission (as shipped) say so with " +
          '--redis-durability aof-always') +
      '; or start the relay with --redis-durability relaxed to accept the risk.',
  );
}
