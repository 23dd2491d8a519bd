/**
 * A Redis connection for the desk's shared state (users, calendar feeds): a request while
 * Redis is away fails at once — the caller answers 503 — and never queues; the connection
 * comes back by itself. Fails with a plain message when Redis cannot be reached at start.
 */
import type Redis from 'ioredis';
import { connectOrExplain, createRedisClient, type RedisTarget } from './redis-client.js';

export async function connectSharedRedis<R extends Redis>(
  target: string | RedisTarget,
  /** What the connection is for, in the start-up error ("the desk's users"). */
  purpose: string,
  scripts: Record<string, { numberOfKeys: number; lua: string }>,
): Promise<R> {
  const redis = createRedisClient(target, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (n) => Math.min(100 * n, 2000),
  });
  redis.on('error', () => undefined); // reconnects by itself; requests fail meanwhile
  for (const [name, script] of Object.entries(scripts)) redis.defineCommand(name, script);
  await connectOrExplain(redis, purpose);
  return redis as R;
}
