/**
 * `POST /token` (form `scope=calendar|news`, `Authorization: Bearer <user token>`): the
 * relay does the client-credentials exchange with the desk's keys through the shared token
 * manager (cached per scope, one exchange in flight, refreshed ahead of expiry) and answers
 * the service's token response with `expires_in` = the seconds left. One audit line per
 * token handed out (user and scope; never the token).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { TokenManager } from '../node/oauth/token-manager.js';
import { upstreamFailure } from './upstream-failure.js';
import { sendError, sendJson } from './http-util.js';
import type { RateLimiter } from './rate-limit.js';

const MAX_FORM_BYTES = 4096;
const formSchema = z.object({ scope: z.enum(['calendar', 'news']) });

export interface TokenEndpointOptions {
  /** The manager for the current keys; null when the relay has none: /token answers 501. */
  tokens: () => TokenManager | null;
  limiter: RateLimiter;
  logger?: Logger;
  now?: () => number;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function createTokenEndpoint(opts: TokenEndpointOptions) {
  const now = opts.now ?? Date.now;
  return async (req: IncomingMessage, res: ServerResponse, user: string): Promise<void> => {
    if (req.method !== 'POST') {
      req.resume();
      return sendError(res, 405, 'method_not_allowed', 'Use POST', { allow: 'POST' });
    }
    const wait = opts.limiter.take(user);
    if (wait > 0) {
      req.resume();
      return sendError(res, 429, 'rate_limited', `Too many token requests: retry in ${wait} s`, {
        'retry-after': String(wait),
      });
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      req.resume();
      return sendError(res, 400, 'invalid_request', 'Send the form scope=calendar or scope=news');
    }
    const form = await readForm(req);
    if (!form) return sendError(res, 413, 'payload_too_large', 'The form is limited to 4 KiB');
    const parsed = formSchema.safeParse({ scope: form.get('scope') ?? undefined });
    if (!parsed.success)
      return sendError(res, 400, 'invalid_scope', 'scope must be calendar or news');
    const tokens = opts.tokens();
    if (!tokens)
      return sendError(
        res,
        501,
        'not_configured',
        'This relay has no provider keys, so it cannot hand out access tokens. ' +
          'Set MACROBELL_PUBLIC_KEY and MACROBELL_PRIVATE_KEY (or run `relay keys set`) on the relay.',
      );
    const { scope } = parsed.data;
    let token;
    try {
      token = await tokens.getToken(scope);
    } catch (err) {
      const failure = upstreamFailure(err, scope, opts.logger);
      return sendError(res, failure.status, failure.error, failure.message);
    }
    opts.logger?.info({ audit: 'token_issued', user, scope }, 'access token handed out');
    sendJson(res, 200, {
      access_token: token.accessToken,
      token_type: token.tokenType,
      expires_in: Math.max(0, Math.floor((token.expiresAt - now()) / 1000)),
    });
  };
}
