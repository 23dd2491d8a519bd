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
  constructor(what: 'replace' | 'remove') {
    super(
      what === 'replace'
        ? 'Replacing the stored API keys (or the service URLs with them) needs the current private key: enter it in "Current private key".'
        : 'Removing the stored API keys needs the current private key: enter it in "Current private key".',
    );
  }
}

/** Whether one of the given values is the stored private key (compared in constant time). */
const proves = (storedPrivateKey: string, given: (string | undefined)[]): boolean =>
  given.some((p) => constantTimeEqual((p ?? '').trim(), storedPrivateKey));

/**
 * While keys are stored, new keys or URLs come only from someone who knows the stored
 * private key: entered as the new private key, or as the current one.
 */
export function assertKeysChangeAllowed(
  storedPrivateKey: string | null,
  given: { privateKey: string; currentPrivateKey?: string },
): void {
  if (!storedPrivateKey) return;
  if (!proves(storedPrivateKey, [given.privateKey, given.currentPrivateKey]))
    throw new KeysChangeError('replace');
}

/**
 * Removing stored keys needs the same proof: otherwise a session alone could remove them
 * and then store its own keys and service URLs, which the rule above forbids.
 */
export function assertKeysRemovalAllowed(
  storedPrivateKey: string | null,
  currentPrivateKey: string | undefined,
): void {
  if (storedPrivateKey && !proves(storedPrivateKey, [currentPrivateKey]))
    throw new KeysChangeError('remove');
}
