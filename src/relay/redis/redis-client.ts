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

/**
 * How long any command may wait for its answer: a Redis that is frozen (SIGSTOP, a link
 * that stops forwarding) keeps the TCP connection open and answers nothing, and without
 * this a request waiting on it — a webhook, a trader's stream, the admin page — hangs for
 * as long as the freeze lasts. Failing at once lets the caller answer 503 with the reason.
 */
export const COMMAND_TIMEOUT_MS = 5_000;
/** Connecting (TCP and TLS) gives up after this, and ioredis retries. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The command timeout of a connection that blocks on XREAD for `blockMs`: the block, and
 * the usual time to answer on top of it.
 */
export function blockingCommandTimeout(blockMs: number): number {
  return blockMs + COMMAND_TIMEOUT_MS;
}

export function createRedisClient(target: string | RedisTarget, options: RedisOptions): Redis {
  const { url, auth } = typeof target === 'string' ? { url: target, auth: undefined } : target;
  const extra: RedisOptions = {};
  // The URL's own user and password, if any, win (ioredis reads the URL first).
  if (auth?.username) extra.username = auth.username;
  if (auth?.password) extra.password = auth.password;
  if (auth?.ca) extra.tls = { ca: auth.ca };
  // No CLIENT SETINFO on connect: one command fewer for the ACL user to be allowed.
  return new Redis(url, {
    disableClientInfo: true,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    ...options,
    ...extra,
  });
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
