/**
 * The alert banner (state/alert-banner.ts): an alert the OS did not show, at the top of the
 * content (the window on top of every other in the desktop app) until dismissed. It takes
 * its place in the page rather than floating over it: no control stays covered meanwhile.
 */
import { useEffect } from 'react';
import { acknowledge } from '../lib/acknowledge.js';
import { soundLevelOf } from '../lib/sounds.js';
import { useAlertBanner, useStores } from '../state/index.js';

export function AlertBanner() {
  const { alertBanner, bridge } = useStores();
  const n = useAlertBanner((s) => s.current);
  useEffect(() => {
    if (n) acknowledge(bridge, n, 'banner');
  }, [n, bridge]);
  if (!n) return null;
  return (
    <div
      className={`alert-banner impact-${soundLevelOf(n).toLowerCase()}`}
      role="alert"
      data-testid="alert-banner"
      data-delivery-id={n.deliveryId}
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
