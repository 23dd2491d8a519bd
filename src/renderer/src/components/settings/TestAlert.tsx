/** Settings → Notifications: "Send test alert", what the OS did with it, and each check's fix. */
import { useState } from 'react';
import type { TestAlertResult } from '../../../../shared/domain.js';
import { testAlertNotification } from '../../../../shared/test-alert.js';
import { browserTestAlert } from '../../lib/browser-test-alert.js';
import { useApp, useStores } from '../../state/index.js';

const OUTCOME_LABEL: Record<TestAlertResult['outcome'], string> = {
  shown: 'Shown',
  failed: 'Failed',
  suppressed: 'Suppressed',
  'in-app': 'Shown in the window',
};

export function TestAlert() {
  const { bridge, alertBanner } = useStores();
  const browserOn = useApp((s) => s.settings?.browserNotifications ?? false);
  const [result, setResult] = useState<TestAlertResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send() {
    setBusy(true);
    setError(null);
    try {
      let r = await bridge.api.sendTestAlert();
      if (bridge.kind === 'http') {
        // The core raised the toast; the browser stands for the OS in web mode.
        const n = testAlertNotification();
        r = await browserTestAlert(n, browserOn);
        if (r.banner) alertBanner.getState().show(n);
      }
      setResult(r);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  const problems = result?.checks.filter((c) => c.ok !== true) ?? [];
  return (
    <div className="test-alert">
      <button type="button" onClick={() => void send()} disabled={busy}>
        {busy ? 'Sending…' : 'Send test alert'}
      </button>
      {error && <p role="alert">{error}</p>}
      {result && (
        <div className="test-alert-result" data-testid="test-alert-result" role="status">
          <p>
            <strong className={`outcome outcome-${result.outcome}`}>
              {OUTCOME_LABEL[result.outcome]}
            </strong>{' '}
            {result.summary}
          </p>
          {problems.length > 0 && (
            <ul className="plain-list test-alert-checks">
              {problems.map((c) => (
                <li key={c.id} data-testid="notification-check">
                  <strong>
                    {c.ok === false ? '✗' : '?'} {c.label}
                  </strong>
                  {c.fix && <span className="muted"> — {c.fix}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
