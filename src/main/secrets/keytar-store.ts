/**
 * The OS keychain through keytar (macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux). keytar is archived upstream: this is the one file to replace to move
 * to Electron's safeStorage or another keyring library. Never falls back to disk.
 */
import type * as KeytarModule from 'keytar';
import { KeychainUnavailableError } from '../errors.js';
import type { SecretName, SecretStore } from './secret-store.js';
import { messageOf } from '../../shared/error-message.js';

type Keytar = typeof KeytarModule;

const HINT =
  process.platform === 'linux'
    ? ' Install and unlock gnome-keyring (Linux; or another Secret Service such as KWallet — packages gnome-keyring libsecret-1-0) and log in to a desktop session.'
    : ' Unlock the system keychain and try again.';

export interface KeytarSecretStoreOptions {
  /** Keychain service name; tests use a unique one. */
  service?: string;
}

export class KeytarSecretStore implements SecretStore {
  private keytar: Promise<Keytar> | null = null;

  private readonly service: string;

  /** A bare string is the service name (kept for existing callers). */
  constructor(opts: KeytarSecretStoreOptions | string = {}) {
    this.service = (typeof opts === 'string' ? opts : opts.service) ?? 'Macrobell';
  }

  private load(): Promise<Keytar> {
    this.keytar ??= import('keytar')
      .then((m) => ((m as { default?: Keytar }).default ?? m) as Keytar)
      .catch((err: unknown) => {
        this.keytar = null;
        throw new KeychainUnavailableError(
          `The OS keychain is not available: ${messageOf(err)}.${HINT}`,
        );
      });
    return this.keytar;
  }

  private async call<T>(fn: (k: Keytar) => Promise<T>): Promise<T> {
    const k = await this.load();
    try {
      return await fn(k);
    } catch (err) {
      throw new KeychainUnavailableError(
        `The OS keychain is not available: ${messageOf(err)}.${HINT}`,
      );
    }
  }

  get(name: SecretName): Promise<string | null> {
    return this.call((k) => k.getPassword(this.service, name));
  }

  async set(name: SecretName, value: string): Promise<void> {
    await this.call((k) => k.setPassword(this.service, name, value));
  }

  async delete(name: SecretName): Promise<void> {
    await this.call((k) => k.deletePassword(this.service, name));
  }

  async available(): Promise<{ ok: boolean; error: string | null }> {
    try {
      await this.call((k) => k.findCredentials(this.service));
      return { ok: true, error: null };
    } catch (err) {
      return { ok: false, error: messageOf(err) };
    }
  }
}
