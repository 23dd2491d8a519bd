/** Data: the cache's size and place, clear it, sync now, copy diagnostics; web: log out. */
import { useEffect, useState } from 'react';
import { logoutWeb } from '../../bridge/http.js';
import { useSettings, useStores } from '../../state/index.js';

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function DataCard() {
  const { settings: store, bridge } = useStores();
  const cache = useSettings((s) => s.cache);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void store
      .getState()
      .loadCache()
      .catch(() => undefined);
  }, [store]);
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
            void store.getState().clearCache().then(setMessage);
          }}
        >
          Clear cache
        </button>
        <button type="button" onClick={() => void store.getState().syncNow().then(setMessage)}>
          Sync now
        </button>
        <button type="button" onClick={() => void store.getState().diagnostics().then(setMessage)}>
          Copy diagnostics
        </button>
        {bridge.kind === 'http' && (
          // Ends this browser's session on the host: the page and its key stop working.
          <button
            type="button"
            onClick={() =>
              void logoutWeb().then(
                () => window.location.reload(),
                () => setMessage('Could not log out: is Macrobell still running?'),
              )
            }
          >
            Log out of this browser
          </button>
        )}
      </div>
      {message && <p role="status">{message}</p>}
    </section>
  );
}
