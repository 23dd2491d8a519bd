/**
 * An alert's receipt in words: which path brought it and how long after the print it was
 * shown ("+0.21 s after the print, via relay"), and each hop's time. Pure.
 */
import type { AlertReceipt, ChangeSource } from '../../../shared/domain.js';
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

/** The moment the alert reached the user: shown, or recorded when not (yet) shown. */
function alertedAt(r: AlertReceipt): number {
  return r.shownAt ?? r.appliedAt;
}

export function receiptSummary(r: AlertReceipt): string {
  const via = `via ${pathLabel(r.path)}`;
  if (r.printAt === null) return via;
  return `+${durationLabel(alertedAt(r) - r.printAt)} after the print, ${via}`;
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
    ['Notification shown', r.shownAt],
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
