/**
 * The service's APIs as the core reads them: tokens from the keys (or, in desk mode, the
 * personal token for the relay's gateway), the calendar and news clients, and every
 * request's outcome fed to the one connection state (sync/service-health.ts).
 */
import { clientCredentialsSource } from '../../node/oauth/client-credentials.js';
import { createApiClients } from '../api/index.js';
import { TokenManager } from '../auth/index.js';
import type { DeskConnection } from '../auth/desk-token-source.js';
import type { SecretStore } from '../secrets/index.js';
import { ServiceHealth, observeApis } from '../sync/service-health.js';
import type { CoreBasics } from './basics.js';

export interface ApiAccess {
  demo: boolean;
  desk: DeskConnection;
  /** Where the keys come from: the keychain, or the demo's own in memory. */
  credentials: SecretStore;
}

export function connectApis(basics: CoreBasics, d: ApiAccess) {
  const { effective, now, logger } = basics;
  const { demo, desk } = d;
  const keysSource = clientCredentialsSource({
    authUrl: () => effective().serviceUrls.auth,
    credentials: async () => {
      const [publicKey, privateKey] = await Promise.all([
        d.credentials.get('publicKey'),
        d.credentials.get('privateKey'),
      ]);
      return publicKey && privateKey ? { publicKey, privateKey } : null;
    },
  });
  const tokens = new TokenManager({ source: demo ? keysSource : desk.source(keysSource) });
  const health = new ServiceHealth(now);
  const clients = createApiClients({
    // Desk mode reads through the relay's gateway: no service token on this machine.
    urls: () => (demo ? effective().serviceUrls : desk.apiUrls(effective().serviceUrls)),
    language: () => effective().language,
    ...(demo ? {} : { http: desk.http }),
    tokens,
    logger,
  });
  const { calendar, news } = observeApis(health, clients.calendar, clients.news);
  return { tokens, health, calendar, news };
}
