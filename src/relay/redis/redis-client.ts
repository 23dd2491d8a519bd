/**
 * Every Redis connection the relay opens, with the credentials and TLS settings the
 * operator gave outside the URL (redis-auth.ts): the password never has to be on the
 * command line, and a private CA can vouch for a `rediss://` server.
 */
import Redis, { type RedisOptions } from 'ioredis';

export interface RedisAuth {
  /** An ACL user (Redis 6+); unset: the default user. */
  username?: string;
  password?: string;
  /** PEM CA certificate(s) that sign the server's certificate, for `rediss://`. */
  ca?: Buffer;
}

/** Where Redis is: a URL, and the credentials kept out of it. */
export interface RedisTarget {
  url: string;
  auth?: RedisAuth;
}

export function createRedisClient(target: string | RedisTarget, options: RedisOptions): Redis {
  const { url, auth } = typeof target === 'string' ? { url: target, auth: undefined } : target;
  const extra: RedisOptions = {};
  // The URL's own user and password, if any, win (ioredis reads the URL first).
  if (auth?.username) extra.username = auth.username;
  if (auth?.password) extra.password = auth.password;
  if (auth?.ca) extra.tls = { ca: auth.ca };
  // No CLIENT SETINFO on connect: one command fewer for the ACL user to be allowed.
  return new Redis(url, { disableClientInfo: true, ...options, ...extra });
}

/**
 * Connects, or fails with why: ioredis rejects with "Connection is closed." and reports
 * the cause (NOAUTH, WRONGPASS, a certificate it cannot verify) as an 'error' event.
 */
export async function connectOrExplain(redis: Redis, purpose: string): Promise<void> {
  let cause: Error | null = null;
  const remember = (err: Error) => (cause ??= err);
  redis.on('error', remember);
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    const why = (cause as Error | null)?.message ?? (err as Error).message;
    throw new Error(`cannot reach Redis for ${purpose}: ${why}`);
  } finally {
    redis.off('error', remember);
  }
}
