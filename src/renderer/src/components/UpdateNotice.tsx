/** The desktop app's "Restart to update" notice, with the release notes (plain text). */
import { useEffect, useState } from 'react';
import type { UpdateNotice as Notice } from '../../../shared/ipc.js';
import { useStores } from '../state/index.js';

export function UpdateNotice() {
  const { bridge } = useStores();
  const [notice, setNotice] = useState<Notice>({ phase: 'idle' });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    return bridge.on('update', setNotice);
  }, [bridge]);
  if (notice.phase !== 'ready') return null;
  return (
    <div className="update-banner" role="status" data-testid="update-notice">
      <div className="update-banner-row">
        <span>{notice.releaseName ?? `Macrobell ${notice.version}`} is ready to install.</span>
        <button
          type="button"
          onClick={() =>
            void bridge.api.installUpdate().catch((err: Error) => setError(err.message))
          }
        >
          Restart to update
        </button>
      </div>
      {notice.releaseNotes && (
        <details>
          <summary>What’s new</summary>
          <p className="release-notes">{notice.releaseNotes}</p>
        </details>
      )}
      {error && <p role="alert">{error}</p>}
    </div>
  );
}
