/** API keys: write-only fields, the masked id, a connection test. */
import { useEffect, useState } from 'react';
import { ConnectionTestResult } from './ConnectionTestResult.js';
import { useSettings, useStores } from '../../state/index.js';

export function KeysCard() {
  const { settings: store } = useStores();
  const info = useSettings((s) => s.credentials);
  const test = useSettings((s) => s.test);
  const testing = useSettings((s) => s.testing);
  const [publicKey, setPublicKey] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [currentPrivateKey, setCurrentPrivateKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void store
      .getState()
      .loadCredentials()
      .catch(() => undefined);
  }, [store]);
  const save = async () => {
    const before = store.getState().credentials;
    const text = await store.getState().saveKeys({
      publicKey,
      privateKey,
      ...(currentPrivateKey.trim() ? { currentPrivateKey } : {}),
    });
    if (store.getState().credentials !== before) {
      setPublicKey('');
      setPrivateKey('');
      setCurrentPrivateKey('');
    }
    setMessage(text);
  };
  return (
    <section className="card" aria-labelledby="keys-h">
      <h2 id="keys-h">API keys</h2>
      {info && !info.keychainAvailable && (
        // The raw cause (a D-Bus message on Linux) is in the diagnostics, not in front of the user.
        <p className="notice error" role="alert" data-testid="keychain-missing">
          Macrobell cannot reach your system keychain (on Linux, a Secret Service such as GNOME
          Keyring must be running and unlocked), so API keys cannot be saved; demo data, the cached
          calendar, news and alerts keep working.
        </p>
      )}
      <p className="muted" data-testid="credentials-state">
        {info?.configured
          ? `Configured (${info.maskedPublicKey ?? 'key set'}) — stored in the OS keychain, never shown again.`
          : 'Not configured — showing demo data.'}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Public key
          <input
            autoComplete="off"
            spellCheck={false}
            value={publicKey}
            onChange={(e) => setPublicKey(e.target.value)}
            placeholder={info?.configured ? 'Enter to replace' : ''}
          />
        </label>
        <label>
          Private key
          <input
            type="password"
            autoComplete="new-password"
            value={privateKey}
            onChange={(e) => setPrivateKey(e.target.value)}
            placeholder={info?.configured ? 'Enter to replace' : ''}
          />
        </label>
        {info?.configured && (
          // Replacing or removing stored keys proves knowledge of them: a session alone cannot.
          <label>
            Current private key
            <input
              type="password"
              autoComplete="current-password"
              value={currentPrivateKey}
              onChange={(e) => setCurrentPrivateKey(e.target.value)}
              placeholder="Needed to replace or clear the stored keys"
            />
          </label>
        )}
        <div className="actions">
          <button
            type="submit"
            className="primary"
            disabled={!publicKey.trim() || !privateKey.trim() || info?.keychainAvailable === false}
          >
            Save keys
          </button>
          <button
            type="button"
            // Without keys there is nothing of the user's to test (demo keys always pass).
            disabled={testing || !info?.configured}
            onClick={() => void store.getState().testConnection()}
          >
            {testing ? 'Testing…' : 'Test connection'}
          </button>
          <button
            type="button"
            disabled={!info?.configured}
            onClick={() =>
              void store
                .getState()
                .clearKeys(currentPrivateKey)
                .then((text) => {
                  if (!store.getState().credentials?.configured) setCurrentPrivateKey('');
                  setMessage(text);
                })
            }
          >
            Clear keys
          </button>
        </div>
      </form>
      {message && <p role="status">{message}</p>}
      <ConnectionTestResult test={test} />
    </section>
  );
}
