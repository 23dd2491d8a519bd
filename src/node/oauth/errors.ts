/** OAuth failures as typed errors with a message a user understands — never a key. */
import { HttpError, NetworkError } from '../http/client.js';

export type AuthErrorCode =
  | 'invalid_client'
  | 'invalid_scope'
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'unauthorized_client'
  | 'no_credentials'
  | 'credentials_changed'
  | 'network'
  | 'server'
  | 'bad_response';

const MESSAGES: Record<string, (scope: string) => string> = {
  invalid_client: () =>
    'The public or private key was rejected by the service (invalid_client). Check both keys in Settings.',
  invalid_scope: (s) => `Your subscription does not include the ${s} API (invalid_scope).`,
  unauthorized_client: (s) => `These keys may not use the ${s} API (unauthorized_client).`,
  invalid_request: () => 'The service rejected the token request as malformed (invalid_request).',
  unsupported_grant_type: () =>
    'The service does not accept the client-credentials grant (unsupported_grant_type).',
  no_credentials: () => 'No API keys configured: add your public and private key in Settings.',
};

export class AuthError extends Error {
  override name = 'AuthError';
  constructor(
    readonly code: AuthErrorCode | string,
    readonly scope: string,
    readonly status: number | null,
    readonly description: string | null,
    message?: string,
  ) {
    super(
      message ??
        MESSAGES[code]?.(scope) ??
        `The token service refused the request (${code}${description ? `: ${description}` : ''}).`,
    );
  }
}

/** How a token server's HTTP refusal reads: its code, its own words, the message to show. */
export interface Refusal {
  code: string;
  description?: string | null;
  /** Undefined: the message the code has above (or the generic one). */
  message?: string;
}

/**
 * The one mapping of a failed token request (the service's token endpoint, or the desk
 * relay's gateway) to an AuthError: an HTTP refusal as `explain` reads it, an unreachable
 * server named as `server`; anything else is passed on as it is.
 */
export function tokenRequestError(
  err: unknown,
  scope: string,
  server: { name: string; explain(err: HttpError): Refusal },
): unknown {
  if (err instanceof HttpError) {
    const r = server.explain(err);
    return new AuthError(r.code, scope, err.status, r.description ?? null, r.message);
  }
  if (err instanceof NetworkError)
    return new AuthError(
      'network',
      scope,
      null,
      null,
      `Cannot reach ${server.name}: ${err.message}`,
    );
  return err;
}
