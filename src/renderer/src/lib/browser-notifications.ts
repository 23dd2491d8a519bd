/**
 * Web mode: the browser's own notifications, once the user allowed them from Settings. Shown
 * only while the tab is not in focus (in focus, the toast is already in view); always silent,
 * because the app plays its own per-impact sound.
 */
import type { NativeNotification } from '../../../shared/domain.js';

export type BrowserPermission = NotificationPermission | 'unsupported';

export function browserPermission(): BrowserPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export async function requestBrowserPermission(): Promise<BrowserPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

/** Shows `n` as a browser notification when allowed and useful; true when shown. */
export function showBrowserNotification(n: NativeNotification, onClick: () => void): boolean {
  if (browserPermission() !== 'granted' || document.hasFocus()) return false;
  try {
    const shown = new Notification(n.title, {
      body: n.body,
      silent: true,
      icon: './bell.svg',
      // one per grouped notification: a re-sent push replaces it instead of stacking
      tag: `macrobell-${n.alertIds.join('-')}`,
    });
    shown.onclick = () => {
      window.focus();
      onClick();
      shown.close();
    };
    return true;
  } catch {
    return false; // e.g. Chrome on Android needs a service worker: the toast still shows
  }
}
