/**
 * Calendar exports, pure: iCalendar (RFC 5545, written by src/shared/ics.ts, which the
 * relay's webcal feed shares) for calendar apps, CSV for spreadsheets, a Google link.
 */
import type { EventDate } from '../../../shared/domain.js';
import { previousFigures, releaseDecimals, unitLabel } from '../../../shared/format.js';
import { describeRelease, icsDate, icsNextDate, icsStamp } from '../../../shared/ics.js';

export { toIcs } from '../../../shared/ics.js';

const CSV_HEAD = [
  'Date (UTC)',
  'All day',
  'Country',
  'Currency',
  'Impact',
  'Event',
  'Actual',
  'Consensus',
  'Previous',
  'Previous revised from',
  'Unit',
] as const;

/** A CSV cell: quoted when it holds a separator, quote or newline; formula starts neutralised. */
function csvCell(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  // a spreadsheet would run "=…", "+…", "-…", "@…" in a text cell as a formula (a negative
  // figure is a number, not a formula)
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s) && !/^-\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Each figure as the calendar shows it (the release's own precision: 52.0, 4.191) but without
 * its unit, so a spreadsheet can compute with it; the unit (K, %, $B) has its own column.
 */
export function toCsv(rows: readonly EventDate[]): string {
  const lines = [CSV_HEAD.join(',')];
  for (const ed of rows) {
    const decimals = releaseDecimals(ed);
    const figure = (v: number | null) => (v === null ? null : v.toFixed(decimals ?? 0));
    const prev = previousFigures(ed);
    lines.push(
      [
        ed.dateUtc,
        ed.isAllDay ? 'yes' : 'no',
        ed.countryCode,
        ed.currencyCode,
        String(ed.volatility),
        ed.name,
        figure(ed.actual),
        figure(ed.consensus),
        figure(prev.current),
        figure(prev.revisedFrom),
        decimals === undefined ? null : unitLabel(ed.unit, ed.potency) || null,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** A Google Calendar "add event" link for one release (for users without a desktop calendar). */
export function googleCalendarUrl(ed: EventDate): string {
  const t = Date.parse(ed.dateUtc);
  const dates = ed.isAllDay
    ? `${icsDate(ed.dateUtc)}/${icsNextDate(ed.dateUtc)}`
    : `${icsStamp(t)}/${icsStamp(t + 900_000)}`;
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: `${ed.countryCode} ${ed.name}`,
    dates,
    details: describeRelease(ed),
  });
  return `https://calendar.google.com/calendar/render?${q.toString()}`;
}

/** Hand a text file to the user (a download in the browser, a save dialog in Electron). */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
