/**
 * Live updates: how the app hears of changes right now (the same state the status bar shows)
 * and the relay URL and token (empty URL = polling). An invalid URL is explained inline and
 * not saved.
 */
import { useEffect, useState } from 'react';
import { connectionState } from '../../lib/connection-label.js';
import { useApp, useStores } from '../../state/index.js';
import { FeedLatencyTable } from './FeedLatencyTable.js';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/** Null when `text` is a relay address the app can use; otherwise what is wrong with it. */
export function relayUrlProblem(text: string): string | null {
  if (!text) return null; // empty: polling
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter the relay’s full address, starting with https:// (for example https://relay.example.com).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'The relay address must start with https://.';
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname))
    return 'Use https:// for a relay on another machine: over http:// the relay token would travel unencrypted.';
  if (url.username || url.password)
    return 'Leave the user name and password out of the address: the relay token goes in its own field.';
  return null;
}

/** Where the live data comes from now: the connection, and the relay or polling. */
function LiveState() {
  const settings = useApp((s) => s.settings);
  const status = useApp((s) => s.status);
  const connection = useApp((s) => s.connection);
  const { tone, label } = connectionState(status, connection);
  return (
    <>
      <p data-testid="live-state">
        <span className={`dot dot-${tone}`} aria-hidden="true" /> Now: <strong>{label}</strong>
        {status?.relay && ` · relay ${status.relay.connected ? 'connected' : 'disconnected'}`}
      </p>
      <p className="muted">
        {status?.demo
          ? 'Demo data comes straight from the built-in simulator’s webhooks; a relay is used with your own keys.'
          : settings?.relayUrl
            ? `Relay: ${settings.relayUrl}`
            : 'No relay: Macrobell polls, slowly most of the time and fast around the releases you follow.'}
      </p>
      <FeedLatencyTable rows={status?.feedLatency ?? []} />
    </>
  );
}

/** The relay form: its address (checked before it is sent) and token; the outcome below. */
function RelayForm() {
  const { settings: store } = useStores();
  const settings = useApp((s) => s.settings);
  const [url, setUrl] = useState(settings?.relayUrl ?? '');
  // settings may arrive after the screen opened
  useEffect(() => {
    setUrl(settings?.relayUrl ?? '');
  }, [settings?.relayUrl]);
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const save = async () => {
    const trimmed = url.trim();
    const wrong = relayUrlProblem(trimmed);
    setProblem(wrong);
    if (wrong) {
      setMessage(null);
      return;
    }
    try {
      setMessage(await store.getState().saveRelay({ url: trimmed || null, token }));
      setToken('');
    } catch (err) {
      setMessage((err as Error).message);
    }
  };
  return (
    <>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          Relay URL
          <input
            type="url"
            placeholder="https://relay.example.com"
            value={url}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'relay-url-problem' : undefined}
            onChange={(e) => {
              setUrl(e.target.value);
              setProblem(null);
            }}
          />
        </label>
        {problem && (
          <p id="relay-url-problem" className="field-error" role="alert">
            {problem}
          </p>
        )}
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
    </>
  );
}

export function LiveUpdatesCard() {
  return (
    <section className="card" aria-labelledby="relay-h">
      <h2 id="relay-h">Live updates</h2>
      <LiveState />
      <RelayForm />
    </section>
  );
}
