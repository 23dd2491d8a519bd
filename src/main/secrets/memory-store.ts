/** An in-memory SecretStore: demo mode and tests. Nothing persists. */
import type { SecretName, SecretStore } from './secret-store.js';

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<SecretName, string>();

  async get(name: SecretName): Promise<string | null> {
    return this.values.get(name) ?? null;
  }

  async set(name: SecretName, value: string): Promise<void> {
    this.values.set(name, value);
  }

  async delete(name: SecretName): Promise<void> {
    this.values.delete(name);
  }

  async available(): Promise<{ ok: boolean; error: string | null }> {
    return { ok: true, error: null };
  }
}
