/** Native notifications from the alerts engine; a click opens the window on the target. */
import { Notification } from 'electron';
import type { NativeNotification } from '../../shared/domain.js';

// Electron drops the click handler of a Notification that has been garbage-collected,
// so each one is kept until it is clicked or closed (bounded, oldest dropped first).
const live = new Set<Notification>();
const MAX_LIVE = 50;
/**
 * The one on screen for each notification the core sent (its `deliveryId`): the fallback's
 * showing, with sound, replaces the silent one rather than stacking a second beside it.
 */
const byDelivery = new Map<number, Notification>();
/**
 * The one on screen for each alert: an alert replaced in place (a figure the service never
 * held, then the real print or its withdrawal) takes its notification's place.
 */
const byAlert = new Map<number, Notification>();

/** What Electron reports after show(): displayed, or refused (with the OS's reason). */
export type ShowResult = { shown: true } | { shown: false; reason: string };

/**
 * Shows `n` natively; on Linux Electron uses libnotify. False when unsupported. `onResult`
 * hears Electron's 'show' or 'failed' (Windows gives the reason; some OSes say nothing).
 */
export function showNotification(
  n: NativeNotification,
  onClick: (target: NativeNotification['target']) => void,
  icon?: string,
  onResult?: (r: ShowResult) => void,
  /** The OS plays its sound (the fallback: the window did not play the app's). */
  opts: { sound?: boolean } = {},
): boolean {
  if (!Notification.isSupported()) return false;
  const notification = new Notification({
    title: n.title,
    body: n.body,
    // The window (hidden, never closed) plays the per-impact sound the user chose, or none in
    // quiet hours: an OS sound on top would double it and ignore a level switched off. Only
    // the fallback, for a window that showed nothing, asks for the OS's sound.
    silent: opts.sound !== true,
    ...(icon ? { icon } : {}),
  });
  const id = n.deliveryId;
  const release = () => {
    live.delete(notification);
    if (id !== undefined && byDelivery.get(id) === notification) byDelivery.delete(id);
    for (const a of n.alertIds) if (byAlert.get(a) === notification) byAlert.delete(a);
  };
  notification.on('click', () => {
    release();
    onClick(n.target);
  });
  notification.on('close', release);
  notification.on('show', () => onResult?.({ shown: true }));
  notification.on('failed', (_e: unknown, reason: unknown) => {
    release();
    onResult?.({ shown: false, reason: String(reason) });
  });
  live.add(notification);
  if (live.size > MAX_LIVE) live.delete(live.values().next().value as Notification);
  if (id !== undefined) {
    byDelivery.get(id)?.close();
    byDelivery.set(id, notification);
    if (byDelivery.size > MAX_LIVE) byDelivery.delete(byDelivery.keys().next().value as number);
  }
  for (const a of n.alertIds) {
    const shown = byAlert.get(a);
    if (shown && shown !== notification) shown.close();
    byAlert.set(a, notification);
  }
  if (byAlert.size > MAX_LIVE) byAlert.delete(byAlert.keys().next().value as number);
  notification.show();
  return true;
}
