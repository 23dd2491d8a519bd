/**
 * Web mode's fallback, outside React: when no surface of the page acknowledged a
 * notification in time, the core pushes it again as `fallback`. If its toast is on screen
 * after all (the acknowledgement was lost), it is acknowledged again; otherwise the browser's
 * notification shows it when allowed, else a plain element on the page with its sound — plain
 * DOM, so a React tree that failed cannot keep it from the trader. It leaves by itself after
 * a while (a HIGH toast's time) and covers no control meanwhile (bottom left, as the toasts).
 */
import {
  DEFAULT_SETTINGS,
  type NativeNotification,
  type Settings,
} from '../../../shared/domain.js';
import type { Bridge } from '../bridge/index.js';
import { acknowledge } from '../lib/acknowledge.js';
import { browserPermission } from '../lib/browser-notifications.js';
import { SOUND_URLS, soundFor, soundLevelOf } from '../lib/sounds.js';

const STAYS_MS = 16_000;

function browserNotification(n: NativeNotification): boolean {
  if (browserPermission() !== 'granted') return false;
  try {
    new Notification(n.title, {
      body: n.body,
      icon: './bell.svg',
      tag: `macrobell-fallback-${n.deliveryId}`,
    });
    return true;
  } catch {
    return false;
  }
}

function pageAlert(n: NativeNotification): void {
  const box = document.createElement('div');
  box.className = `page-alert impact-${soundLevelOf(n).toLowerCase()}`;
  box.setAttribute('role', 'alert');
  box.dataset.testid = 'page-alert';
  const title = document.createElement('strong');
  title.textContent = n.title; // text, never markup
  box.append(title);
  if (n.body) {
    const body = document.createElement('span');
    body.textContent = n.body;
    box.append(body);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = '✕';
  close.setAttribute('aria-label', `Dismiss: ${n.title}`);
  close.addEventListener('click', () => box.remove());
  box.append(close);
  document.body.append(box);
  setTimeout(() => box.remove(), STAYS_MS);
}

function playSound(n: NativeNotification, settings: Settings): void {
  const level = soundFor(n, settings.sounds);
  if (!level) return;
  const audio = new Audio(SOUND_URLS[level]);
  audio.dataset.sound = level;
  // The browser may refuse before the first click: the alert still shows.
  void Promise.resolve(audio.play()).catch(() => undefined);
}

/** Web mode: show each `fallback` push the page's React surfaces did not. */
export function startPageFallback(bridge: Bridge, settings: () => Settings | null): void {
  if (bridge.kind !== 'http') return; // the desktop host falls back natively (electron/app.ts)
  bridge.on('fallback', (n) => {
    if (!n.deliveryId) return;
    if (document.querySelector(`[data-delivery-id="${n.deliveryId}"]`)) {
      acknowledge(bridge, n, 'toast');
      return;
    }
    const s = settings() ?? DEFAULT_SETTINGS;
    const shownBy =
      s.browserNotifications && !document.hasFocus() && browserNotification(n)
        ? 'browser-notification'
        : (pageAlert(n), 'page-alert');
    playSound(n, s);
    acknowledge(bridge, n, shownBy);
  });
}
