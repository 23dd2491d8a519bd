import { useEffect, useState } from 'react';
import type { CacheInfo, ConnectionTestResult, CredentialsInfo } from '../../../shared/domain.js';
import { useApp, useStores } from '../state/index.js';
import { ConnectionCard } from './settings/ConnectionCard.js';

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function Keys() {
  const { bridge } = useStores();
  const [info, setInfo] = useState<CredentialsInfo | null>(null);
  const [publicKey, setPublicKey] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [test, setTest] = useState<ConnectionTestResult | null>(null);
  const [testing, setTesting] = useState(false);
  useEffect(() => {
    void bridge.api
      .getCredentials()
      .then(setInfo)
      .catch(() => undefined);
  }, [bridge]);
  const save = async () => {
    try {
      setInfo(await bridge.api.setCredentials({ publicKey, privateKey }));
      setPublicKey('');
      setPrivateKey('');
      const { demo } = await bridge.api.getStatus();
      setMessage(
        demo
          ? 'Saved to the OS keychain. This window was started on demo data (--demo): start it without that flag for live data.'
          : 'Saved to the OS keychain. Macrobell now shows live data from the service.',
      );
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  return (
    <section className="card" aria-labelledby="keys-h">
      <h2 id="keys-h">API keys</h2>
      {info && !info.keychainAvailable && (
        <p className="notice error" role="alert">
          The OS keychain is not available, so keys cannot be stored: {info.keychainError}
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
        <div className="actions">
          <button
            type="submit"
            className="primary"
            disabled={!publicKey.trim() || !privateKey.trim()}
          >
            Save keys
          </button>
          <button
            type="button"
            // Without keys there is nothing of the user's to test (demo keys always pass).
            disabled={testing || !info?.configured}
            onClick={async () => {
              setTesting(true);
              setTest(
                await bridge.api.testConnection().catch((err: Error) => ({
                  ok: false,
                  scopes: {
                    calendar: { ok: false, message: err.message },
                    news: { ok: false, message: err.message },
                  },
                })),
              );
              setTesting(false);
            }}
          >
            {testing ? 'Testing…' : 'Test connection'}
          </button>
          <button
            type="button"
            disabled={!info?.configured}
            onClick={() =>
              void bridge.api.clearCredentials().then(
                (next) => {
                  setInfo(next);
                  setMessage('Keys removed from the keychain. Back on demo data.');
                },
                (err: Error) => setMessage(err.message),
              )
            }
          >
            Clear keys
          </button>
        </div>
      </form>
      {message && <p role="status">{message}</p>}
      {test && (
        <ul className="test-result" aria-label="Connection test">
          {(['calendar', 'news'] as const).map((s) => (
            <li key={s} className={test.scopes[s].ok ? 'ok' : 'bad'}>
              <strong>{s}:</strong> {test.scopes[s].message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Relay() {
  const { bridge } = useStores();
  const settings = useApp((s) => s.settings);
  const [url, setUrl] = useState(settings?.relayUrl ?? '');
  // settings may arrive after the screen opened
  useEffect(() => setUrl(settings?.relayUrl ?? ''), [settings?.relayUrl]);
  const [token, setToken] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="relay-h">
      <h2 id="relay-h">Live updates</h2>
      <p className="muted">
        {settings?.relayUrl
          ? `Relay: ${settings.relayUrl}`
          : 'Polling: slow most of the time, fast around the releases you follow.'}
      </p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            await bridge.api.setRelay({ url: url.trim() || null, token: token || undefined });
            setToken('');
            setMessage(url.trim() ? 'Relay saved.' : 'Switched to polling.');
          } catch (err) {
            setMessage((err as Error).message);
          }
        }}
      >
        <label>
          Relay URL
          <input
            type="url"
            placeholder="https://relay.example.com"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <label>
          Relay token
          <input
            type="password"
            autoComplete="new-password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </label>
        <div className="actions">
          <button type="submit">Save</button>
        </div>
      </form>
      {message && <p role="status">{message}</p>}
    </section>
  );
}

function Display() {
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  const zones = [
    'system',
    ...((Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.(
      'timeZone',
    ) ?? ['UTC']),
  ];
  if (!settings) return null;
  return (
    <section className="card" aria-labelledby="display-h">
      <h2 id="display-h">Display</h2>
      <label>
        Time zone
        <select
          value={settings.timeZone}
          onChange={(e) => void update({ timeZone: e.target.value })}
        >
          {zones.map((z) => (
            <option key={z} value={z}>
              {z === 'system' ? 'System time zone' : z}
            </option>
          ))}
        </select>
      </label>
      <label>
        Clock
        <select
          value={settings.hourCycle}
          onChange={(e) => void update({ hourCycle: e.target.value as 'h12' | 'h23' })}
        >
          <option value="h23">24-hour</option>
          <option value="h12">12-hour</option>
        </select>
      </label>
      <label>
        Theme
        <select
          value={settings.theme}
          onChange={(e) => void update({ theme: e.target.value as 'system' | 'light' | 'dark' })}
        >
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <label>
        News languages (comma-separated, e.g. en-US, de-DE)
        <input
          defaultValue={settings.cultures.join(', ')}
          onBlur={(e) => {
            const cultures = e.target.value
              .split(',')
              .map((c) => c.trim())
              .filter(Boolean);
            if (cultures.length) void update({ cultures });
          }}
        />
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={settings.allowRemoteImages}
          onChange={(e) => void update({ allowRemoteImages: e.target.checked })}
        />{' '}
        Load remote images in news
      </label>
    </section>
  );
}

function Data() {
  const { bridge } = useStores();
  const [cache, setCache] = useState<CacheInfo | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void bridge.api
      .getCacheInfo()
      .then(setCache)
      .catch(() => undefined);
  }, [bridge]);
  return (
    <section className="card" aria-labelledby="data-h">
      <h2 id="data-h">Data</h2>
      {cache && (
        <p>
          <code>{cache.dataDir}</code> — {mb(cache.databaseBytes)}, {cache.eventDates} releases and{' '}
          {cache.posts} stories cached.
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          onClick={() => {
            if (
              !window.confirm(
                'Clear the cache? Macrobell fetches everything again; your alert history stays.',
              )
            )
              return;
            void bridge.api.clearCache().then(
              (next) => {
                setCache(next);
                setMessage('Cache cleared; syncing again.');
              },
              (err: Error) => setMessage(err.message),
            );
          }}
        >
          Clear cache
        </button>
        <button
          type="button"
          onClick={() =>
            void bridge.api.syncNow().then(
              () => setMessage('Synced.'),
              (err: Error) => setMessage(err.message),
            )
          }
        >
          Sync now
        </button>
        <button
          type="button"
          onClick={async () => {
            let text: string;
            try {
              text = await bridge.api.getDiagnostics();
            } catch (err) {
              setMessage((err as Error).message);
              return;
            }
            try {
              await navigator.clipboard.writeText(text);
              setMessage('Diagnostics copied (no keys or tokens included).');
            } catch {
              setMessage('Could not reach the clipboard.');
            }
          }}
        >
          Copy diagnostics
        </button>
      </div>
      {message && <p role="status">{message}</p>}
    </section>
  );
}

export function Settings() {
  // Desk mode: no keys on this machine, and the Connection card holds the relay URL and token.
  const desk = useApp((s) => s.settings?.connection === 'desk');
  return (
    <section className="settings-screen" aria-label="Settings">
      <header className="screen-header">
        <h1>Settings</h1>
      </header>
      <div className="settings-grid">
        <ConnectionCard />
        {!desk && <Keys />}
        {!desk && <Relay />}
        <Display />
        <Data />
      </div>
    </section>
  );
}
