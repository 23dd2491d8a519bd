/**
 * One read from the service with the relay's own access token: the token never leaves
 * the relay. A 401 from the service (token expired early, keys rotated) drops the token
 * and tries once more; failures to get a token become 502/503/504 answers that name the
 * problem without any key or token in them.
 */
import { request, type Dispatcher } from 'undici';
import { AuthError } from '../../node/oauth/errors.js';
import type { Logger } from 'pino';
import type { ReplyError } from '../../node/http/server/reply-error.js';
import { messageOf } from '../../shared/error-message.js';
import { RelayErrors } from '../errors.js';
import { upstreamFailure } from '../desk/upstream-failure.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import type { GatewayScope } from './read-routes.js';

/** What the gateway keeps of a service answer: passed to traders unchanged. */
export interface UpstreamAnswer {
  status: number;
  /** The headers that pass through (content type, Retry-After, ETag, Last-Modified). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface UpstreamOptions {
  baseUrl: (scope: GatewayScope) => string;
  tokens: () => TokenManager | null;
  dispatcher?: Dispatcher;
  /** A service answer larger than this is refused (502) rather than held in memory. */
  maxBodyBytes?: number;
  timeoutMs?: number;
  /** Where a refused token exchange is explained to the desk's administrator. */
  logger?: Logger;
}

const PASSED_HEADERS = ['content-type', 'retry-after', 'etag', 'last-modified'];

/** A gateway-made answer (no service involved): the catalogue's `{error, message}`. */
export function relayAnswer(err: ReplyError): UpstreamAnswer {
  return {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...err.headers },
    body: Buffer.from(JSON.stringify({ error: err.code, message: err.message })),
  };
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function createUpstream(opts: UpstreamOptions) {
  const maxBody = opts.maxBodyBytes ?? 16 * 1024 * 1024;
  const timeout = opts.timeoutMs ?? 15_000;

  async function once(
    scope: GatewayScope,
    path: string,
    manager: TokenManager,
    ifNoneMatch: string | undefined,
  ): Promise<UpstreamAnswer> {
    const authorization = await manager.getAuthorization(scope);
    const res = await request(`${opts.baseUrl(scope).replace(/\/+$/, '')}${path}`, {
      method: 'GET',
      headers: {
        authorization,
        accept: 'application/json',
        ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
      },
      dispatcher: opts.dispatcher,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    const body = await readCapped(res.body, maxBody);
    if (body === null) return relayAnswer(RelayErrors.UPSTREAM_TOO_LARGE());
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const v = res.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    return { status: res.statusCode, headers, body };
  }

  /** GET `path` on the scope's service; `ifNoneMatch` revalidates a kept answer. */
  return async function fetchUpstream(
    scope: GatewayScope,
    path: string,
    ifNoneMatch?: string,
  ): Promise<UpstreamAnswer> {
    const manager = opts.tokens();
    if (!manager) return relayAnswer(RelayErrors.NO_KEYS_FOR_GATEWAY());
    try {
      const first = await once(scope, path, manager, ifNoneMatch);
      if (first.status !== 401) return first;
      manager.invalidate(scope);
      return await once(scope, path, manager, ifNoneMatch);
    } catch (err) {
      if (err instanceof AuthError) return relayAnswer(upstreamFailure(err, scope, opts.logger));
      return relayAnswer(RelayErrors.UPSTREAM_UNREACHABLE(messageOf(err)));
    }
  };
}

export type FetchUpstream = ReturnType<typeof createUpstream>;
