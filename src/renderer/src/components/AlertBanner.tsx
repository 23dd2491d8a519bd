/**
 * The alert banner (state/alert-banner.ts): an alert the OS did not show, across the top of
 * the window (on top of every other window in the desktop app) until dismissed.
 */
import { soundLevelOf } from '../lib/sounds.js';
import { useAlertBanner, useStores } from '../state/index.js';

export function AlertBanner() {
  const { alertBanner } = useStores();
  const n = useAlertBanner((s) => s.current);
  if (!n) return null;
  return (
    <div
      className={`alert-banner impact-${soundLevelOf(n).toLowerCase()}`}
      role="alert"
      data-testid="alert-banner"
    >
      <button
        type="button"
        className="alert-banner-main"
        onClick={() => alertBanner.getState().open()}
      >
        <strong>{n.title}</strong>
        {n.body && <span className="alert-banner-body">{n.body}</span>}
      </button>
      <button type="button" onClick={() => alertBanner.getState().dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
