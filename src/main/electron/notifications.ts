/** Native notifications from the alerts engine; a click opens the window on the target. */
import { Notification } from 'electron';
import type { NativeNotification } from '../../shared/domain.js';

// Electron drops the click handler of a Notification that has been garbage-collected,
// so each one is kept until it is clicked or closed (bounded, oldest dropped first).
const live = new Set<Notification>();
const MAX_LIVE = 50;

/** Shows `n` natively; on Linux Electron uses libnotify. False when unsupported. */
export function showNotification(
  n: NativeNotification,
  onClick: (target: NativeNotification['target']) => void,
  icon?: string,
): boolean {
  if (!Notification.isSupported()) return false;
  const notification = new Notification({
    title: n.title,
    body: n.body,
    // The window (hidden, never closed) plays the per-impact sound the user chose, or none in
    // quiet hours: an OS sound on top would double it and ignore a level switched off.
    silent: true,
    ...(icon ? { icon } : {}),
  });
  const release = () => live.delete(notification);
  notification.on('click', () => {
    release();
    onClick(n.target);
  });
  notification.on('close', release);
  live.add(notification);
  if (live.size > MAX_LIVE) live.delete(live.values().next().value as Notification);
  notification.show();
  return true;
}
