/** API keys: write-only fields, the masked id, a connection test. */
import { useEffect, useState } from 'react';
import type { CredentialsInfo } from '../../../../shared/domain.js';
import { ConnectionTestResult } from './ConnectionTestResult.js';
import { useSettings, useStores } from '../../state/index.js';

/** The three write-only fields, emptied once the keychain took what they held. */
function useKeyFields() {
  const { settings: store } = useStores();
  const [publicKey, setPublicKey] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [currentPrivateKey, setCurrentPrivateKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);
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
  const clear = () =>
    void store
      .getState()
      .clearKeys(currentPrivateKey)
      .then((text) => {
        if (!store.getState().credentials?.configured) setCurrentPrivateKey('');
        setMessage(text);
      });
  const fields = { publicKey, privateKey, currentPrivateKey };
  const setters = { setPublicKey, setPrivateKey, setCurrentPrivateKey };
  return { fields, setters, save, clear, message };
}

/** Whether keys are stored (never shown again), and a keychain the app cannot reach. */
function KeysState({ info }: { info: CredentialsInfo | null }) {
  return (
    <>
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
    </>
  );
}

function KeyInputs({
  configured,
  fields,
  setters,
}: {
  configured: boolean;
  fields: ReturnType<typeof useKeyFields>['fields'];
  setters: ReturnType<typeof useKeyFields>['setters'];
}) {
  const replace = configured ? 'Enter to replace' : '';
  return (
    <>
      <label>
        Public key
        <input
          autoComplete="off"
          spellCheck={false}
          value={fields.publicKey}
          onChange={(e) => setters.setPublicKey(e.target.value)}
          placeholder={replace}
        />
      </label>
      <label>
        Private key
        <input
          type="password"
          autoComplete="new-password"
          value={fields.privateKey}
          onChange={(e) => setters.setPrivateKey(e.target.value)}
          placeholder={replace}
        />
      </label>
      {configured && (
        // Replacing or removing stored keys proves knowledge of them: a session alone cannot.
        <label>
          Current private key
          <input
            type="password"
            autoComplete="current-password"
            value={fields.currentPrivateKey}
            onChange={(e) => setters.setCurrentPrivateKey(e.target.value)}
            placeholder="Needed to replace or clear the stored keys"
          />
        </label>
      )}
    </>
  );
}

export function KeysCard() {
  const { settings: store } = useStores();
  const info = useSettings((s) => s.credentials);
  const test = useSettings((s) => s.test);
  const testing = useSettings((s) => s.testing);
  const { fields, setters, save, clear, message } = useKeyFields();
  useEffect(() => {
    void store
      .getState()
      .loadCredentials()
      .catch(() => undefined);
  }, [store]);
  const canSave =
    fields.publicKey.trim() && fields.privateKey.trim() && info?.keychainAvailable !== false;
  return (
    <section className="card" aria-labelledby="keys-h">
      <h2 id="keys-h">API keys</h2>
      <KeysState info={info} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <KeyInputs configured={!!info?.configured} fields={fields} setters={setters} />
        <div className="actions">
          <button type="submit" className="primary" disabled={!canSave}>
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
          <button type="button" disabled={!info?.configured} onClick={clear}>
            Clear keys
          </button>
        </div>
      </form>
      {message && <p role="status">{message}</p>}
      <ConnectionTestResult test={test} />
    </section>
  );
}
