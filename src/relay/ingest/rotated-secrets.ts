/**
 * Webhook secrets a rotation added after this node started, beside the ones it started
 * with: those in DATA/relay-secrets.json (`rotate-secret` on this node's data folder), and
 * on Redis the desk-wide set of their SHA-256 digests (`rotate-secret --redis`: every node
 * on that Redis accepts the new secret within a second, whatever its own environment says;
 * only a digest is stored, never the secret). The webhook path checks a Set in memory: the
 * file is re-read at most once a second when a delivery comes with an unknown secret, the
 * Redis set is read in the background once a second (a failed read keeps the last one).
 */
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { connectSharedRedis } from '../redis/redis-connect.js';
import type { RedisTarget } from '../redis/redis-client.js';
import { PREFIX } from '../redis/redis-scripts.js';
import { fileSecrets } from './secrets.js';

/** The desk's set of accepted rotated webhook secrets, as SHA-256 hex digests. */
export const ROTATED_SECRETS_KEY = `${PREFIX}webhook_secrets`;

export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface RotatedSecrets {
  /** Whether `segment` is a secret a rotation added since this node started. */
  accepts(segment: string): boolean;
  close(): Promise<void>;
}

function fileWatch(dataDir: string, now: () => number): (segment: string) => boolean {
  let read = { digests: new Set<string>(), at: -Infinity };
  return (segment) => {
    if (now() - read.at >= 1000)
      read = { digests: new Set(fileSecrets(dataDir).map(secretDigest)), at: now() };
    return read.digests.has(secretDigest(segment));
  };
}

export async function watchRotatedSecrets(opts: {
  dataDir: string;
  redis?: RedisTarget;
  everyMs?: number;
  logger?: Logger;
  now?: () => number;
}): Promise<RotatedSecrets> {
  const inFile = fileWatch(opts.dataDir, opts.now ?? Date.now);
  if (!opts.redis) return { accepts: inFile, close: async () => undefined };
  const redis = await connectSharedRedis<Redis>(opts.redis, 'the rotated webhook secrets', {});
  let shared = new Set<string>();
  const read = async () => {
    try {
      shared = new Set(await redis.smembers(ROTATED_SECRETS_KEY));
    } catch (err) {
      opts.logger?.debug({ reason: (err as Error).message }, 'rotated secrets not read');
    }
  };
  await read();
  const timer = setInterval(() => void read(), opts.everyMs ?? 1000);
  timer.unref();
  return {
    accepts: (segment) => shared.has(secretDigest(segment)) || inFile(segment),
    async close() {
      clearInterval(timer);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
