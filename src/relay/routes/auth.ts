/** The bearer check every trader route starts with: the user, or 401, or 503 (store away). */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { Desk } from '../desk/desk.js';
import { RelayError, RelayErrors } from '../errors.js';

/** `authenticate` rejects when the users store is away: 503 with Retry-After, logged. */
export async function requireUser(
  authenticate: () => Promise<string | null>,
  logger?: Logger,
): Promise<string> {
  let user: string | null;
  try {
    user = await authenticate();
  } catch (err) {
    if (err instanceof RelayError) throw err;
    logger?.warn({ err }, 'the user store is unavailable; request refused with 503');
    throw RelayErrors.TOKENS_UNCHECKABLE();
  }
  if (!user) throw RelayErrors.UNAUTHORIZED();
  return user;
}

/** The user of a relay route's request (the desk's tokens, or the legacy single token). */
export function requestUser(
  ctx: { desk: Pick<Desk, 'authenticate'>; logger?: Logger },
  req: IncomingMessage,
): Promise<string> {
  return requireUser(() => ctx.desk.authenticate(req), ctx.logger);
}
