/**
 * Settings → Connection: "My own keys" (this machine holds the provider keys) or "Desk
 * relay" (the desk's relay holds them; this machine has a relay URL and a personal token,
 * kept in the OS keychain, and gets its access tokens from the relay).
 */
import { useEffect, useState } from 'react';
import { ConnectionTestResult } from './ConnectionTestResult.js';
import type { ConnectionTestResult as TestAnswer } from '../../../../shared/domain.js';
import { useApp, useStores } from '../../state/index.js';

type Mode = 'keys' | 'desk';

function ModeChoice({
  mode,
  onKeys,
  onDesk,
}: {
  mode: Mode;
  onKeys: () => void;
  onDesk: () => void;
}) {
  return (
    <fieldset className="choices" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="muted">Where access tokens come from</legend>
      <label className="inline">
        <input type="radio" name="connection" checked={mode === 'keys'} onChange={onKeys} /> My own
        keys — this computer holds the provider&apos;s public and private key.
      </label>
      <label className="inline">
        <input type="radio" name="connection" checked={mode === 'desk'} onChange={onDesk} /> Desk
        relay — your desk&apos;s relay holds the keys; you sign in with a personal token.
      </label>
    </fieldset>
  );
}

/** A test that could not run: both scopes failed with its error. */
const failedTest = (err: Error): TestAnswer => ({
  ok: false,
  scopes: {
    calendar: { ok: false, message: err.message },
    news: { ok: false, message: err.message },
  },
});

/** The desk relay's URL and personal token (to the keychain), and a test of the connection. */
function DeskForm(props: { setMessage: (m: string) => void; setTest: (t: TestAnswer) => void }) {
  const { bridge } = useStores();
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  const { setMessage, setTest } = props;
  const [url, setUrl] = useState(settings?.relayUrl ?? '');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  // Settings may arrive after the screen opened.
  useEffect(() => {
    setUrl(settings?.relayUrl ?? '');
  }, [settings?.relayUrl]);
  const saveDesk = async () => {
    setBusy(true);
    try {
      await bridge.api.setRelay({ url: url.trim(), token: token.trim() || undefined });
      setToken('');
      await update({ connection: 'desk' });
      setMessage(
        'Saved. Access tokens now come from the desk relay; your token is in the OS keychain.',
      );
    } catch (err) {
      setMessage((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const runTest = async () => {
    setBusy(true);
    setTest(await bridge.api.testConnection().catch(failedTest));
    setBusy(false);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void saveDesk();
      }}
    >
      <label>
        Relay URL
        <input
          type="url"
          required
          placeholder="https://relay.example.com"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <label>
        Personal token
        <input
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder={settings?.connection === 'desk' ? 'Enter to replace' : 'mbu_…'}
        />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || !url.trim()}>
          Use the desk relay
        </button>
        <button
          type="button"
          disabled={busy || settings?.connection !== 'desk'}
          onClick={() => void runTest()}
        >
          {busy ? 'Working…' : 'Test connection'}
        </button>
      </div>
    </form>
  );
}

export function ConnectionCard() {
  const settings = useApp((s) => s.settings);
  const update = useApp((s) => s.updateSettings);
  const [mode, setMode] = useState<Mode>(settings?.connection ?? 'keys');
  const [message, setMessage] = useState<string | null>(null);
  const [test, setTest] = useState<TestAnswer | null>(null);
  // Settings may arrive after the screen opened.
  useEffect(() => {
    setMode(settings?.connection ?? 'keys');
  }, [settings?.connection]);
  if (!settings) return null;

  const chooseKeys = async () => {
    setMode('keys');
    if (settings.connection === 'keys') return;
    try {
      await update({ connection: 'keys' });
      setMessage('Using your own API keys (enter them under API keys).');
    } catch (err) {
      setMessage((err as Error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="connection-h" data-testid="connection-card">
      <h2 id="connection-h">Connection</h2>
      <ModeChoice mode={mode} onKeys={() => void chooseKeys()} onDesk={() => setMode('desk')} />
      {mode === 'desk' && <DeskForm setMessage={setMessage} setTest={setTest} />}
      {message && <p role="status">{message}</p>}
      <ConnectionTestResult test={test} />
    </section>
  );
}
