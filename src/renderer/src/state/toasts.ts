/**
 * In-app toasts: one per notification the alerts engine emits (already grouped, rate-limited
 * and quiet-hours aware, the same ones the OS shows), with the sound of its impact level and,
 * in web mode, the browser's notification.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  DEFAULT_SETTINGS,
  type NativeNotification,
  type SoundLevel,
} from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { showBrowserNotification } from '../lib/browser-notifications.js';
import { soundFor } from '../lib/sounds.js';
import type { AlertsState } from './alerts.js';
import type { AppState } from './app.js';

interface Toast {
  id: number;
  notification: NativeNotification;
  /** Whether its sound played (the banner for the same notification then stays quiet). */
  sounded: boolean;
}

/** Two copies of one notification (the core's push, the banner's or the test's own). */
function sameNotification(a: NativeNotification, b: NativeNotification): boolean {
  return (
    a.title === b.title &&
    a.body === b.body &&
    a.test === b.test &&
    a.alertIds.length === b.alertIds.length &&
    a.alertIds.every((id, i) => id === b.alertIds[i])
  );
}

export interface ToastsState {
  items: Toast[];
  /** The last sound asked for; `seq` grows with each, so the same level plays again. */
  sound: { level: SoundLevel; seq: number } | null;
  push(n: NativeNotification): void;
  /** A toast on screen already played the sound of `n`: one alert, one sound. */
  sounded(n: NativeNotification): boolean;
  dismiss(id: number): void;
  /** Open what the toast is about, mark its alerts read, and close it. */
  open(id: number): void;
  /** Play a level's sound (the Settings preview). */
  preview(level: SoundLevel): void;
}

interface ToastOptions {
  /** How long a toast stays (ms); high impact stays twice as long. */
  lifetimeMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

/** More would cover the screen; the oldest goes (the Alerts screen keeps them all). */
const MAX_TOASTS = 4;

export function createToastsStore(
  bridge: Bridge,
  app: StoreApi<AppState>,
  alerts: StoreApi<AlertsState>,
  opts: ToastOptions = {},
) {
  const lifetimeMs = opts.lifetimeMs ?? 8_000;
  const later = opts.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  let nextId = 1;
  let seq = 0;
  const store = createStore<ToastsState>()((set, get) => ({
    items: [],
    sound: null,
    push(notification) {
      const id = nextId++;
      const settings = app.getState().settings ?? DEFAULT_SETTINGS;
      const level = soundFor(notification, settings.sounds);
      const toast = { id, notification, sounded: level !== null };
      set({ items: [...get().items, toast].slice(-MAX_TOASTS) });
      later(
        () => get().dismiss(id),
        notification.volatility === 'HIGH' ? lifetimeMs * 2 : lifetimeMs,
      );
      if (level) set({ sound: { level, seq: ++seq } });
      if (bridge.kind === 'http' && settings.browserNotifications)
        showBrowserNotification(notification, () => get().open(id));
    },
    sounded(n) {
      return get().items.some((t) => t.sounded && sameNotification(t.notification, n));
    },
    dismiss(id) {
      if (get().items.some((t) => t.id === id))
        set({ items: get().items.filter((t) => t.id !== id) });
    },
    open(id) {
      const toast = get().items.find((t) => t.id === id);
      get().dismiss(id);
      if (!toast) return;
      for (const alertId of toast.notification.alertIds) void alerts.getState().markRead(alertId);
      app.getState().navigate(toast.notification.target);
    },
    preview(level) {
      set({ sound: { level, seq: ++seq } });
    },
  }));
  bridge.on('notification', (n) => store.getState().push(n));
  return store;
}
