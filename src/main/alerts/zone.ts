/** Time-zone helpers: every wall-clock decision goes through Luxon, so DST is right. */
import { DateTime, Info } from 'luxon';
import { renderTimeTokens } from '../../shared/format.js';

/**
 * The zone to show or judge times in. "system" means the machine's own; an unknown name
 * (settings only check it is a string) also falls back to it rather than failing.
 */
export function effectiveZone(zone: string): string {
  if (zone === 'system' || zone === 'local' || !Info.isValidIANAZone(zone)) return 'local';
  return zone;
}

export function wallClock(atMs: number, zone: string): DateTime {
  return DateTime.fromMillis(atMs, { zone: effectiveZone(zone) });
}

/** `Fri 14 Mar 13:30` (or `1:30 PM` with a 12-hour clock) in `zone`. */
export function formatWhen(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  const dt = DateTime.fromISO(iso, { zone: 'utc' });
  if (!dt.isValid) return iso;
  return dt
    .setZone(effectiveZone(zone))
    .setLocale('en-US')
    .toFormat(hourCycle === 'h12' ? 'ccc d LLL h:mm a' : 'ccc d LLL HH:mm');
}

/**
 * Alert texts are stored with time tokens (`{dt:ISO}`, `{t:ISO}`) so they read in the zone
 * and clock of the moment they are shown, not the moment they were written.
 */
export function renderAlertTimes(text: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return renderTimeTokens(text, (iso, kind) =>
    kind === 't' ? formatTime(iso, zone, hourCycle) : formatWhen(iso, zone, hourCycle),
  );
}

/** `13:30` (or `1:30 PM`) in `zone`. */
export function formatTime(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  const dt = DateTime.fromISO(iso, { zone: 'utc' });
  if (!dt.isValid) return iso;
  return dt
    .setZone(effectiveZone(zone))
    .setLocale('en-US')
    .toFormat(hourCycle === 'h12' ? 'h:mm a' : 'HH:mm');
}
