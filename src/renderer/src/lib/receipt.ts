/**
 * An alert's receipt in words: which path brought it and how long after the print it was
 * shown ("+0.21 s after the print, via relay"), and each hop's time. Pure.
 */
import type { AlertReceipt, AlertSurface, ChangeSource } from '../../../shared/domain.js';
import { zoneOf } from './time.js';

const PATH_LABEL: Record<ChangeSource, string> = {
  relay: 'relay',
  webhook: 'demo webhook',
  poll: 'safety net',
  backfill: 'backfill',
  local: 'this app',
};

export function pathLabel(path: ChangeSource): string {
  return PATH_LABEL[path] ?? path;
}

/** "0.21 s", "12 s", "3 min 5 s", "2 h 4 min". */
export function durationLabel(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(2)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const SURFACE_LABEL: Record<AlertSurface, string> = {
  toast: 'the toast',
  sound: 'the sound',
  banner: 'the banner',
  'page-alert': "the page's fallback alert",
  'browser-notification': "the browser's notification",
  'native-notification': "the system's notification",
};

export function surfaceLabel(surface: AlertSurface): string {
  return SURFACE_LABEL[surface] ?? surface;
}

/**
 * "+0.21 s after the print, via relay, shown by the toast". A receipt no surface
 * acknowledged says so, and when the fallback fired; one from before acknowledgements
 * (no `sentAt`) reads its sending as it did.
 */
export function receiptSummary(r: AlertReceipt): string {
  const via = `via ${pathLabel(r.path)}`;
  const after = (at: number) =>
    r.printAt === null ? '' : `+${durationLabel(at - r.printAt)} after the print, `;
  if (r.sentAt == null) return `${after(r.shownAt ?? r.appliedAt)}${via}`;
  if (r.shownAt !== null)
    return `${after(r.shownAt)}${via}${r.shownBy ? `, shown by ${surfaceLabel(r.shownBy)}` : ''}`;
  const fallback =
    r.fallbackAt == null
      ? ''
      : r.printAt === null
        ? '; the fallback fired'
        : `; the fallback fired +${durationLabel(r.fallbackAt - r.printAt)} after the print`;
  return `Not acknowledged by any surface${fallback}, ${via}`;
}

export interface Hop {
  label: string;
  at: number;
  /** Time since the print, in ms (null for hops before it, e.g. a stamp in whole seconds). */
  sincePrint: number | null;
}

/** Each hop that happened, in order, with its delay after the print. */
export function receiptHops(r: AlertReceipt): Hop[] {
  const hops: [string, number | null][] = [
    ['Scheduled', r.scheduledAt],
    ['Service stamped (lastUpdated)', r.lastUpdatedAt],
    ['Relay received', r.relayReceivedAt],
    ['Applied by the app', r.appliedAt],
    ['Sent to the window', r.sentAt ?? null],
    ['Fallback fired (no surface acknowledged it)', r.fallbackAt ?? null],
    [r.shownBy ? `Shown by ${surfaceLabel(r.shownBy)}` : 'Notification shown', r.shownAt],
  ];
  return hops.flatMap(([label, at]) =>
    at === null ? [] : [{ label, at, sincePrint: r.printAt === null ? null : at - r.printAt }],
  );
}

/** A hop's time to the millisecond, in the user's zone: "13:30:00.214" or "01:30:00.214 PM". */
export function hopTimeLabel(ms: number, zone: string, hourCycle: 'h12' | 'h23'): string {
  // en-US on the 12-hour clock: "PM" as the grid writes it, not en-GB's "pm"
  return new Intl.DateTimeFormat(hourCycle === 'h12' ? 'en-US' : 'en-GB', {
    timeZone: zoneOf(zone),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    hourCycle,
  }).format(ms);
}
