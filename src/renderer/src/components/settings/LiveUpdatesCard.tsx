/** Live updates: the relay URL and token (empty URL = polling). */
import { useEffect, useState } from 'react';
import { useApp, useStores } from '../../state/index.js';

export function LiveUpdatesCard() {
  const { settings: store } = useStores();
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
            setMessage(await store.getState().saveRelay({ url: url.trim() || null, token }));
            setToken('');
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
