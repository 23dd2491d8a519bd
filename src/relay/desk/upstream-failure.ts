/**
 * A failed token exchange with the service, as the relay reports it: a plain cause in the
 * relay's log for the desk's administrator, and an answer a trader can act on (the desk's
 * keys live on the relay, so nothing in a trader's Settings can fix them). Used by
 * `POST /token` and the read gateway alike; the keys are never in either.
 */
import type { Logger } from 'pino';
import { AuthError } from '../../node/oauth/errors.js';
import { RelayErrors, type RelayError } from '../errors.js';

/** What went wrong upstream, in words for the desk's administrator (the relay's log). */
const OPERATOR_CAUSES: Record<string, string> = {
  invalid_client:
    "the service refused this relay's provider keys (invalid_client): set the right ones with `relay keys set` or MACROBELL_PUBLIC_KEY / MACROBELL_PRIVATE_KEY",
  invalid_scope: "the desk's subscription does not include this API (invalid_scope)",
  unauthorized_client: "the desk's keys may not use this API (unauthorized_client)",
};

/** Logs the cause and returns the answer (`upstream_<code>`); anything but an AuthError is rethrown. */
export function upstreamFailure(err: unknown, scope: string, logger?: Logger): RelayError {
  if (!(err instanceof AuthError)) throw err;
  const cause = OPERATOR_CAUSES[err.code] ?? err.message;
  logger?.error({ scope, code: err.code, cause }, 'token exchange with the service failed');
  const message =
    err.code === 'invalid_client'
      ? "The service refused the desk relay's provider keys (invalid_client). Your desk administrator must fix them on the relay; nothing in your Settings can."
      : `The service refused the relay: ${err.message}`;
  return RelayErrors.UPSTREAM(err.code, message);
}
