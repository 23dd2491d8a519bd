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
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { upstreamFailure } from './upstream-failure.js';
import { mediaType, readBody } from '../../node/http/server/body.js';
import { ReplyError } from '../../node/http/server/reply-error.js';
import { RelayErrors } from '../errors.js';
import { sendJson } from '../http-util.js';
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

/** The form, or null past 4 KiB (the rest is read and dropped, then answered 413). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  try {
    return new URLSearchParams((await readBody(req, MAX_FORM_BYTES)).toString('utf8'));
  } catch (err) {
    if (err instanceof ReplyError && err.status === 413) return null;
    throw err;
  }
}

/** The endpoint; its refusals are thrown from the catalogue (the relay's handler answers them). */
export function createTokenEndpoint(opts: TokenEndpointOptions) {
  const now = opts.now ?? Date.now;
  return async (req: IncomingMessage, res: ServerResponse, user: string): Promise<void> => {
    if (req.method !== 'POST') throw RelayErrors.METHOD_NOT_ALLOWED('POST');
    const wait = opts.limiter.take(user);
    if (wait > 0) throw RelayErrors.TOKEN_RATE_LIMITED(wait);
    if (mediaType(req) !== 'application/x-www-form-urlencoded')
      throw RelayErrors.TOKEN_FORM_EXPECTED();
    const form = await readForm(req);
    if (!form) throw RelayErrors.TOKEN_FORM_TOO_LARGE();
    const parsed = formSchema.safeParse({ scope: form.get('scope') ?? undefined });
    if (!parsed.success) throw RelayErrors.INVALID_SCOPE();
    const tokens = opts.tokens();
    if (!tokens) throw RelayErrors.NO_KEYS_FOR_TOKENS();
    const { scope } = parsed.data;
    let token;
    try {
      token = await tokens.getToken(scope);
    } catch (err) {
      throw upstreamFailure(err, scope, opts.logger);
    }
    opts.logger?.info({ audit: 'token_issued', user, scope }, 'access token handed out');
    sendJson(res, 200, {
      access_token: token.accessToken,
      token_type: token.tokenType,
      expires_in: Math.max(0, Math.floor((token.expiresAt - now()) / 1000)),
    });
  };
}
