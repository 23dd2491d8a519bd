import type { Scope } from '../../shared/domain.js';

/** A fresh access token for one scope, as the token endpoint answered it. */
export interface TokenGrant {
  accessToken: string;
  tokenType: string;
  /** Seconds the token stays valid from the moment it was received. */
  expiresInSec: number;
}

/** Where fresh tokens come from: the service with keys, or a desk relay with a user token. */
export type TokenSource = (scope: Scope) => Promise<TokenGrant>;
