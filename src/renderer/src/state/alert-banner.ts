/**
 * The alert banner: when an OS notification did not get through (refused, or hidden by
 * Focus, a missing daemon or shortcut, or a browser that may not notify), the window shows
 * it on top with its sound until the trader dismisses it, so a HIGH print is never silent.
 * The desktop shell says when (the `banner` push); in web mode the page decides itself.
 */
import { owning } from './owned.js';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { NativeNotification } from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { browserPermission } from '../lib/browser-notifications.js';
import { soundLevelOf } from '../lib/sounds.js';
import type { AlertsState } from './alerts.js';
import type { AppState } from './app.js';
import type { ToastsState } from './toasts.js';

export interface AlertBannerState {
  current: NativeNotification | null;
  show(n: NativeNotification): void;
  dismiss(): void;
  /** Open what it is about (marking its alerts read) and close it. */
  open(): void;
}

/** Web mode: would the browser show `n` as its own notification? (see toasts.ts) */
function browserWillNotify(app: StoreApi<AppState>): boolean {
  return (
    Boolean(app.getState().settings?.browserNotifications) && browserPermission() === 'granted'
  );
}

/**
 * Web mode: a HIGH print while the trader looks elsewhere and the browser may not notify is
 * the banner's, not a toast's — one surface per alert (toasts.ts asks this before a toast).
 */
export function webBannerTakes(n: NativeNotification, app: StoreApi<AppState>): boolean {
  return n.volatility === 'HIGH' && !n.test && !document.hasFocus() && !browserWillNotify(app);
}

export function createAlertBannerStore(
  bridge: Bridge,
  app: StoreApi<AppState>,
  alerts: StoreApi<AlertsState>,
  toasts: StoreApi<ToastsState>,
) {
  const store = createStore<AlertBannerState>()((set, get) => ({
    current: null,
    show(n) {
      set({ current: n });
      // Quiet hours stay quiet; a toast that sounded for it (before or after) is its sound.
      if (!n.silent) toasts.getState().soundOnce(n, soundLevelOf(n));
    },
    dismiss() {
      if (!get().current) return;
      set({ current: null });
      void bridge.api.dismissAlertBanner().catch(() => undefined);
    },
    open() {
      const n = get().current;
      get().dismiss();
      if (!n) return;
      for (const id of n.alertIds) void alerts.getState().markRead(id);
      app.getState().navigate(n.target);
    },
  }));
  const offs = [bridge.on('banner', (n) => store.getState().show(n))];
  // A HIGH print while the trader looks elsewhere and the browser may not notify: the banner.
  if (bridge.kind === 'http')
    offs.push(
      bridge.on('notification', (n) => {
        if (webBannerTakes(n, app)) store.getState().show(n);
      }),
    );
  return owning(store, offs);
}
