/**
 * Calendar exports, pure: iCalendar (RFC 5545) for calendar apps, CSV for spreadsheets.
 * Times are written in UTC (DTSTART…Z), so every calendar app shows them in its own zone;
 * all-day items (holidays) are written as dates.
 */
import type { EventDate } from '../../../shared/domain.js';
import { formatValue } from '../../../shared/format.js';

const PRODID = '-//Macrobell//Economic calendar//EN';

/** RFC 5545 text escaping: backslash, semicolon, comma, newline. */
function icsText(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r?\n/g, '\\n');
}

/** Lines longer than 75 octets are folded: CRLF then one space (RFC 5545 §3.1). */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let cur = '';
  let len = 0;
  for (const ch of line) {
    const n = new TextEncoder().encode(ch).length;
    if (len + n > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
      len = 0;
    }
    cur += ch;
    len += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const date = (iso: string) => iso.slice(0, 10).replace(/-/g, '');
const nextDate = (iso: string) =>
  new Date(Date.parse(iso.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');

function describe(ed: EventDate): string {
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency);
  const parts = [`Impact: ${String(ed.volatility).toLowerCase()}`];
  if (ed.actual !== null) parts.push(`Actual: ${f(ed.actual)}`);
  if (ed.consensus !== null) parts.push(`Consensus: ${f(ed.consensus)}`);
  if (ed.previous !== null) parts.push(`Previous: ${f(ed.revised ?? ed.previous)}`);
  return parts.join('\n');
}

/** One VCALENDAR with a VEVENT per release; `now` stamps DTSTAMP (injected for tests). */
export function toIcs(rows: readonly EventDate[], now: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN'];
  for (const ed of rows) {
    lines.push('BEGIN:VEVENT', `UID:${ed.id}@macrobell`, `DTSTAMP:${stamp(now)}`);
    if (ed.isAllDay)
      lines.push(
        `DTSTART;VALUE=DATE:${date(ed.dateUtc)}`,
        `DTEND;VALUE=DATE:${nextDate(ed.dateUtc)}`,
      );
    else {
      const t = Date.parse(ed.dateUtc);
      lines.push(`DTSTART:${stamp(t)}`, `DTEND:${stamp(t + (ed.isSpeech ? 3_600_000 : 900_000))}`);
    }
    lines.push(
      `SUMMARY:${icsText(`${ed.countryCode} ${ed.name}`)}`,
      `DESCRIPTION:${icsText(describe(ed))}`,
      `CATEGORIES:${icsText(ed.currencyCode)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

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
  'Revised',
  'Unit',
] as const;

/** A CSV cell: quoted when it holds a separator, quote or newline; formula starts neutralised. */
function csvCell(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  // a spreadsheet would run "=…", "+…", "-…", "@…" in a text cell as a formula
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Raw numbers (no unit suffix) so a spreadsheet can compute with them. */
export function toCsv(rows: readonly EventDate[]): string {
  const lines = [CSV_HEAD.join(',')];
  for (const ed of rows)
    lines.push(
      [
        ed.dateUtc,
        ed.isAllDay ? 'yes' : 'no',
        ed.countryCode,
        ed.currencyCode,
        String(ed.volatility),
        ed.name,
        ed.actual,
        ed.consensus,
        ed.previous,
        ed.revised,
        ed.unit,
      ]
        .map(csvCell)
        .join(','),
    );
  return lines.join('\r\n') + '\r\n';
}

/** A Google Calendar "add event" link for one release (for users without a desktop calendar). */
export function googleCalendarUrl(ed: EventDate): string {
  const t = Date.parse(ed.dateUtc);
  const dates = ed.isAllDay
    ? `${date(ed.dateUtc)}/${nextDate(ed.dateUtc)}`
    : `${stamp(t)}/${stamp(t + 900_000)}`;
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: `${ed.countryCode} ${ed.name}`,
    dates,
    details: describe(ed),
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
