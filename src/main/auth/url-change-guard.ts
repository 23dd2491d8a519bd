/**
 * Keys go wherever the auth URL points. So while keys are stored, the service URLs change
 * only together with the private key (setCredentials with serviceUrls): a page or script
 * holding just a session cannot point the app at its own listener and press "Test".
 */
import { isDeepStrictEqual } from 'node:util';
import type { ServiceUrls } from '../../shared/domain.js';

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
