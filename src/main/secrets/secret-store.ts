/** Where the app keeps its keys. The renderer, SQLite, logs and settings never see them. */
export type SecretName = 'publicKey' | 'privateKey' | 'relayToken';

export interface SecretStore {
  get(name: SecretName): Promise<string | null>;
  set(name: SecretName, value: string): Promise<void>;
  delete(name: SecretName): Promise<void>;
  /** Whether the backing keychain can be used; the error says how to fix it. */
  available(): Promise<{ ok: boolean; error: string | null }>;
}
