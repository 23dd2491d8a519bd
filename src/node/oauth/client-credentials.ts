/**
 * The OAuth 2.0 client-credentials exchange (form-encoded, per scope) as a token source:
 * what the app uses with its own keys and the relay uses with the desk's keys. Errors are
 * typed and never carry a key, even when the server echoes one back.
 */
import type { Scope } from '../../shared/domain.js';
import { oauthErrorSchema, tokenResponseSchema } from '../../shared/wire.js';
import { defaultHttpClient, type HttpError, type HttpClient } from '../http/client.js';
import { scrubSecrets } from '../log/scrub.js';
import { AuthError, tokenRequestError, type Refusal } from './errors.js';
import type { TokenGrant, TokenSource } from './token-source.js';

export interface Credentials {
  publicKey: string;
  privateKey: string;
}

export interface ClientCredentialsOptions {
  authUrl: () => string;
  credentials: () => Promise<Credentials | null>;
  http?: HttpClient;
}

/** The token endpoint's refusal: its OAuth error (the description scrubbed of `secrets`), else its status. */
function oauthRefusal(err: HttpError, secrets: string[]): Refusal {
  const oauth = oauthErrorSchema.safeParse(err.json);
  if (!oauth.success)
    return { code: 'server', message: `The token service answered HTTP ${err.status}.` };
  // The description is the server's text: make sure it cannot echo a key back.
  const description = oauth.data.error_description
    ? scrubSecrets(oauth.data.error_description, secrets)
    : null;
  return { code: oauth.data.error, description };
}

/** A token endpoint's JSON answer as a grant, or a typed error. */
export function parseGrant(json: unknown, scope: Scope): TokenGrant {
  const parsed = tokenResponseSchema.safeParse(json);
  if (!parsed.success)
    throw new AuthError(
      'bad_response',
      scope,
      200,
      null,
      'The token service sent a response without a usable token.',
    );
  return {
    accessToken: parsed.data.access_token,
    tokenType: parsed.data.token_type,
    expiresInSec: parsed.data.expires_in,
  };
}

export function clientCredentialsSource(opts: ClientCredentialsOptions): TokenSource {
  const http = opts.http ?? defaultHttpClient();
  return async (scope: Scope): Promise<TokenGrant> => {
    const creds = await opts.credentials();
    if (!creds) throw new AuthError('no_credentials', scope, null, null);
    const url = `${opts.authUrl().replace(/\/+$/, '')}/v2/token`;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.publicKey,
      client_secret: creds.privateKey,
      scope,
    }).toString();
    let json: unknown;
    try {
      ({ json } = await http.requestJson({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }));
    } catch (err) {
      throw tokenRequestError(err, scope, {
        name: 'the token service',
        explain: (e) => oauthRefusal(e, [creds.publicKey, creds.privateKey]),
      });
    }
    return parseGrant(json, scope);
  };
}
