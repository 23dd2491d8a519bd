/**
 * The credentials API: the service keys and the relay token live in the OS keychain
 * only; the UI sees whether they are set and a masked public key, never the secrets.
 */
import { messageOf } from '../../shared/error-message.js';
import type { CredentialsInfo, Scope } from '../../shared/domain.js';
import { maskKey } from '../../shared/format.js';
import type { AppApi } from '../../shared/ipc.js';
import type { SettingsPatch } from '../../shared/settings-schema.js';
import type { TokenManager } from '../auth/index.js';
import {
  assertKeysChangeAllowed,
  assertKeysRemovalAllowed,
  assertRelayUrlChangeAllowed,
} from '../auth/url-change-guard.js';
import type { SettingsFile } from '../config/settings-file.js';
import type { SecretStore } from '../secrets/index.js';
import { SCOPES } from './status.js';

export interface CredentialsDeps {
  keychain: SecretStore;
  settingsFile: Pick<SettingsFile, 'get' | 'update'>;
  tokens: Pick<TokenManager, 'clear' | 'test'>;
  /** The settings fan-out (a relay URL change restarts sync). */
  updateSettings: (patch: SettingsPatch) => Promise<unknown>;
  pushStatus: () => void;
  /** What a passed test says in desk mode (undefined: the keys' wording). */
  testMessage?: (scope: Scope) => string | undefined;
}

export type CredentialsApi = Pick<
  AppApi,
  'getCredentials' | 'setCredentials' | 'clearCredentials' | 'testConnection' | 'setRelay'
>;

export interface Credentials {
  /** What the keychain holds, read now. */
  read(): Promise<CredentialsInfo>;
  /** The last read (the status shows it without a keychain round trip). */
  cached(): CredentialsInfo;
  /** Every stored secret's value, to scrub from diagnostics. */
  knownSecrets(): Promise<string[]>;
  /** Refuse to point a stored relay token at another relay unless a new token comes with it. */
  guardRelayUrl(url: string | null | undefined, tokenGiven: boolean): Promise<void>;
  api: CredentialsApi;
}

/** What the keychain holds, read now: whether each secret is set, never the secrets. */
export async function readCredentials(keychain: SecretStore): Promise<CredentialsInfo> {
  const available = await keychain.available();
  const [pub, priv, relayToken] = available.ok
    ? await Promise.all([
        keychain.get('publicKey'),
        keychain.get('privateKey'),
        keychain.get('relayToken'),
      ])
    : [null, null, null];
  return {
    configured: Boolean(pub && priv),
    maskedPublicKey: pub ? maskKey(pub) : null,
    relayTokenConfigured: Boolean(relayToken),
    keychainAvailable: available.ok,
    keychainError: available.error,
  };
}

export async function createCredentials(deps: CredentialsDeps): Promise<Credentials> {
  const { keychain, settingsFile, tokens, pushStatus } = deps;

  const read = () => readCredentials(keychain);
  let cached = await read();
  const refresh = async (): Promise<CredentialsInfo> => (cached = await read());
  /** After a change: re-read, tell the UI, answer with what is stored now. */
  const changed = async (): Promise<CredentialsInfo> => {
    await refresh();
    pushStatus();
    return cached;
  };

  const guardRelayUrl = (url: string | null | undefined, tokenGiven: boolean) =>
    assertRelayUrlChangeAllowed(settingsFile.get().relayUrl, url, tokenGiven, async () =>
      // A keychain that does not answer is not "no token": its error reaches the user.
      Boolean(await keychain.get('relayToken')),
    );

  return {
    read,
    cached: () => cached,
    async knownSecrets() {
      // Diagnostics are scrubbed of every stored secret: one the keychain cannot read now
      // could not be scrubbed, so the report is refused with the reason instead.
      const values = await Promise.all(
        (['publicKey', 'privateKey', 'relayToken'] as const).map((k) =>
          keychain.get(k).catch((err: unknown) => {
            throw new Error(
              `Diagnostics need the keychain, to leave your keys out of them, and it does not answer: ${messageOf(err)}`,
              { cause: err },
            );
          }),
        ),
      );
      return values.filter((v): v is string => Boolean(v));
    },
    guardRelayUrl,
    api: {
      getCredentials: refresh,
      setCredentials: async ({ publicKey, privateKey, serviceUrls, currentPrivateKey }) => {
        const stored = (await keychain.available()).ok ? await keychain.get('privateKey') : null;
        assertKeysChangeAllowed(stored, { privateKey, currentPrivateKey });
        await keychain.set('publicKey', publicKey.trim());
        await keychain.set('privateKey', privateKey.trim());
        if (serviceUrls) settingsFile.update({ serviceUrls });
        tokens.clear();
        return changed();
      },
      clearCredentials: async (input) => {
        const stored = (await keychain.available()).ok ? await keychain.get('privateKey') : null;
        assertKeysRemovalAllowed(stored, input?.currentPrivateKey);
        await keychain.delete('publicKey');
        await keychain.delete('privateKey');
        tokens.clear();
        return changed();
      },
      testConnection: async () => {
        const results = await Promise.all(
          SCOPES.map(async (s) => [s, await tokens.test(s, deps.testMessage?.(s))] as const),
        );
        const scopes = Object.fromEntries(results) as Record<
          Scope,
          { ok: boolean; message: string }
        >;
        pushStatus();
        return { ok: results.every(([, r]) => r.ok), scopes };
      },
      setRelay: async ({ url, token }) => {
        await guardRelayUrl(url, Boolean(token));
        if (token) await keychain.set('relayToken', token);
        if (url === null) await keychain.delete('relayToken');
        await deps.updateSettings({ relayUrl: url });
        return changed();
      },
    },
  };
}
