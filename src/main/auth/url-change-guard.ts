/**
 * Keys go wherever the auth URL points. So while keys are stored, the service URLs change
 * only together with the private key (setCredentials with serviceUrls): a page or script
 * holding just a session cannot point the app at its own listener and press "Test".
 */
import { isDeepStrictEqual } from 'node:util';
import type { ServiceUrls } from '../../shared/domain.js';
import { constantTimeEqual } from '../../node/security/compare.js';
import { KeysRequiredError } from '../errors.js';

export async function assertServiceUrlChangeAllowed(
  current: ServiceUrls,
  requested: ServiceUrls | undefined,
  keysStored: () => Promise<boolean>,
): Promise<void> {
  if (requested === undefined || isDeepStrictEqual(current, requested)) return;
  if (await keysStored()) throw new KeysRequiredError('serviceUrls');
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
  if (await tokenStored()) throw new KeysRequiredError('relayUrl');
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
    throw new KeysRequiredError('keys');
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
    throw new KeysRequiredError('removeKeys');
}
