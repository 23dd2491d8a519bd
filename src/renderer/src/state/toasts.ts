/**
 * In-app toasts: one per notification the alerts engine emits (already grouped, rate-limited
 * and quiet-hours aware, the same ones the OS shows), with the sound of its impact level and,
 * in web mode, the browser's notification.
 */
import { owning } from './owned.js';
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  DEFAULT_SETTINGS,
  type NativeNotification,
  type SoundLevel,
} from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { volatilityRank } from '../../../shared/format.js';
import { showBrowserNotification } from '../lib/browser-notifications.js';
import { soundFor } from '../lib/sounds.js';
import { webBannerTakes } from './alert-banner.js';
import type { AlertsState } from './alerts.js';
import type { AppState } from './app.js';

interface Toast {
  id: number;
  notification: NativeNotification;
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
  /**
   * The last sound asked for; `seq` grows with each, so the same level plays again.
   * `for`: the notifications it sounds for (merged asks included), acknowledged once it starts.
   */
  sound: { level: SoundLevel; seq: number; for: NativeNotification[] } | null;
  /** The player took the sound `seq` (a later ask no longer merges into it). */
  soundPlayed(seq: number): void;
  push(n: NativeNotification): void;
  /**
   * The banner's sound for `n`, unless a toast already played it. One alert, one sound,
   * whichever comes first: over the web host the banner of a test alert can be shown
   * before its toast arrives, and that toast then stays quiet.
   */
  soundOnce(n: NativeNotification, level: SoundLevel): void;
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
/**
 * How long a toast and the banner of one alert count as one for its sound: they come
 * within a second of each other; the same test alert sent again later sounds again.
 */
const SOUND_ONCE_MS = 5_000;

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
  /** The seq of the last sound the player took. */
  let playedSeq = 0;
  /** Notifications whose sound played lately (by a toast or the banner), and when. */
  let sounded: { n: NativeNotification; at: number }[] = [];
  const alreadySounded = (n: NativeNotification) => {
    const now = Date.now();
    sounded = sounded.filter((s) => now - s.at < SOUND_ONCE_MS);
    return sounded.some((s) => sameNotification(s.n, n));
  };
  const remember = (n: NativeNotification) => {
    sounded = [...sounded, { n, at: Date.now() }];
  };
  const store = createStore<ToastsState>()((set, get) => {
    /**
     * Ask for a level's sound. Two asks before the player's next turn (a reminder and a
     * print pushed together) reach it as one state: it plays the louder of them, so a HIGH
     * print is never heard as the LOW reminder that came with it.
     */
    const ask = (level: SoundLevel, n: NativeNotification) => {
      const waiting = get().sound;
      const pending = waiting !== null && waiting.seq > playedSeq;
      const louder =
        pending && volatilityRank(waiting.level) > volatilityRank(level) ? waiting.level : level;
      const sounds = pending ? [...waiting.for, n] : [n];
      set({ sound: { level: louder, seq: ++seq, for: sounds } });
    };
    return {
      items: [],
      sound: null,
      push(notification) {
        // Web mode: the banner shows this one (and sounds it); a toast would repeat its text.
        if (bridge.kind === 'http' && webBannerTakes(notification, app)) return;
        const id = nextId++;
        const settings = app.getState().settings ?? DEFAULT_SETTINGS;
        const level = alreadySounded(notification) ? null : soundFor(notification, settings.sounds);
        if (level) remember(notification);
        const toast = { id, notification };
        // An alert replaced in place takes its toast's place: one toast per alert.
        const others = get().items.filter(
          (t) => !t.notification.alertIds.some((a) => notification.alertIds.includes(a)),
        );
        set({ items: [...others, toast].slice(-MAX_TOASTS) });
        later(
          () => get().dismiss(id),
          notification.volatility === 'HIGH' ? lifetimeMs * 2 : lifetimeMs,
        );
        if (level) ask(level, notification);
        if (bridge.kind === 'http' && settings.browserNotifications)
          showBrowserNotification(notification, () => get().open(id));
      },
      soundOnce(n, level) {
        if (alreadySounded(n)) return;
        remember(n);
        ask(level, n);
      },
      soundPlayed(played) {
        playedSeq = Math.max(playedSeq, played);
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
        set({ sound: { level, seq: ++seq, for: [] } });
      },
    };
  });
  return owning(store, [bridge.on('notification', (n) => store.getState().push(n))]);
}
