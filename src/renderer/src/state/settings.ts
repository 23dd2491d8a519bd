/**
 * What the Settings screen reads and does besides the settings themselves (those live in
 * the app store): stored keys, the relay, the cache, diagnostics. Each action answers the
 * message to show, so the cards stay views.
 */
import { createStore } from 'zustand/vanilla';
import type { CacheInfo, ConnectionTestResult, CredentialsInfo } from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { messageOf } from '../../../shared/error-message.js';

export interface SettingsState {
  credentials: CredentialsInfo | null;
  cache: CacheInfo | null;
  test: ConnectionTestResult | null;
  testing: boolean;
  loadCredentials(): Promise<void>;
  loadCache(): Promise<void>;
  /** Saves the keys to the OS keychain; answers what the user should read. */
  saveKeys(keys: {
    publicKey: string;
    privateKey: string;
    currentPrivateKey?: string;
  }): Promise<string>;
  clearKeys(currentPrivateKey?: string): Promise<string>;
  testConnection(): Promise<void>;
  /** Relay URL (null = polling) and optionally its token. Throws the host's message. */
  saveRelay(input: { url: string | null; token?: string }): Promise<string>;
  clearCache(): Promise<string>;
  syncNow(): Promise<string>;
  diagnostics(): Promise<string>;
}

/** Runs an action for a button: its message on success, the host's message on failure. */
async function saying(run: () => Promise<unknown>, done: string): Promise<string> {
  try {
    await run();
    return done;
  } catch (err) {
    return messageOf(err);
  }
}

export function createSettingsStore(bridge: Bridge) {
  return createStore<SettingsState>()((set) => ({
    credentials: null,
    cache: null,
    test: null,
    testing: false,
    async loadCredentials() {
      set({ credentials: await bridge.api.getCredentials() });
    },
    async loadCache() {
      set({ cache: await bridge.api.getCacheInfo() });
    },
    async saveKeys(keys) {
      try {
        set({ credentials: await bridge.api.setCredentials(keys), test: null });
        const { demo } = await bridge.api.getStatus();
        return demo
          ? 'Saved to the OS keychain. This window was started on demo data (--demo): start it without that flag for live data.'
          : 'Saved to the OS keychain. Macrobell now shows live data from the service.';
      } catch (err) {
        return messageOf(err);
      }
    },
    clearKeys(currentPrivateKey) {
      const proof = currentPrivateKey?.trim() ? { currentPrivateKey } : undefined;
      return saying(async () => {
        set({ credentials: await bridge.api.clearCredentials(proof), test: null });
      }, 'Keys removed from the keychain. Back on demo data.');
    },
    async testConnection() {
      set({ testing: true });
      const test = await bridge.api
        .testConnection()
        .catch((err: unknown): ConnectionTestResult => ({
          ok: false,
          scopes: {
            calendar: { ok: false, message: messageOf(err) },
            news: { ok: false, message: messageOf(err) },
          },
        }));
      set({ test, testing: false });
    },
    async saveRelay(input) {
      const credentials = await bridge.api.setRelay({
        url: input.url,
        ...(input.token ? { token: input.token } : {}),
      });
      set({ credentials });
      return input.url ? 'Relay saved.' : 'Switched to polling.';
    },
    clearCache: () =>
      saying(
        async () => set({ cache: await bridge.api.clearCache() }),
        'Cache cleared; syncing again.',
      ),
    syncNow: () => saying(() => bridge.api.syncNow(), 'Synced.'),
    async diagnostics() {
      let text: string;
      try {
        text = await bridge.api.getDiagnostics();
      } catch (err) {
        return messageOf(err);
      }
      try {
        await navigator.clipboard.writeText(text);
        return 'Diagnostics copied (no keys or tokens included).';
      } catch {
        return 'Could not reach the clipboard.';
      }
    },
  }));
}
