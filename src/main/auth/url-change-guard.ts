/**
 * Keys go wherever the auth URL points. So while keys are stored, the service URLs change
 * only together with the private key (setCredentials with serviceUrls): a page or script
 * holding just a session cannot point the app at its own listener and press "Test".
 */
import { isDeepStrictEqual } from 'node:util';
import type { ServiceUrls } from '../../shared/domain.js';
import { constantTimeEqual } from '../../node/security/compare.js';

class ServiceUrlChangeError extends Error {
  override name = 'ServiceUrlChangeError';
  readonly code = 'keys_required';
  readonly status = 403;
  constructor() {
    super(
      'Changing the service URLs while API keys are stored needs the private key: enter the keys again together with the new URLs.',
    );
  }
}

export async function assertServiceUrlChangeAllowed(
  current: ServiceUrls,
  requested: ServiceUrls | undefined,
  keysStored: () => Promise<boolean>,
): Promise<void> {
  if (requested === undefined || isDeepStrictEqual(current, requested)) return;
  if (await keysStored()) throw new ServiceUrlChangeError();
}

class RelayUrlChangeError extends Error {
  override name = 'RelayUrlChangeError';
  readonly code = 'keys_required';
  readonly status = 403;
  constructor() {
    super(
      'Changing the relay URL while a relay token is stored needs the token: enter it again together with the new URL (or remove the relay first).',
    );
  }
}

/**
 * The relay token (in desk mode, the trader's personal token) goes wherever the relay URL
 * points: a new URL is accepted only with the token entered again, or to switch to polling.
 */
export async function assertRelayUrlChangeAllowed(
  current: string | null,
  requested: string | null | undefined,
  tokenGiven: boolean,
  tokenStored: () => Promise<boolean>,
): Promise<void> {
  if (requested === undefined || requested === null || requested === current || tokenGiven) return;
  if (await tokenStored()) throw new RelayUrlChangeError();
}

class KeysChangeError extends Error {
  override name = 'KeysChangeError';
  readonly code = 'keys_required';
  readonly status = 403;
  constructor() {
    super(
      'Replacing the stored API keys (or the service URLs with them) needs the current private key: enter it in "Current private key".',
    );
  }
}

/**
 * While keys are stored, new keys or URLs come only from someone who knows the stored
 * private key: entered as the new private key, or as the current one.
 */
export function assertKeysChangeAllowed(
  storedPrivateKey: string | null,
  given: { privateKey: string; currentPrivateKey?: string },
): void {
  if (!storedPrivateKey) return;
  const proof = [given.privateKey, given.currentPrivateKey ?? ''];
  if (!proof.some((p) => constantTimeEqual(p.trim(), storedPrivateKey)))
    throw new KeysChangeError();
}
