/**
 * iCalendar (RFC 5545), pure: the renderer's "export week" / "add to calendar" and the
 * relay's webcal feed write the same text. Times are written in UTC (DTSTART…Z), so every
 * calendar app shows them in its own zone; all-day items (holidays) are written as dates.
 * The UID is the event date's id, so a calendar app that re-reads a feed updates an entry
 * in place (a reschedule moves it) instead of adding a copy.
 */
import type { EventDate } from './domain.js';
import { formatValue, previousFigures, releaseDecimals } from './format.js';
import { withoutControls } from './plain-text.js';

const PRODID = '-//Macrobell//Economic calendar//EN';

/**
 * RFC 5545 text escaping: backslash, semicolon, comma, and every line break (CRLF, a lone
 * CR or LF) as `\n`; other control characters (and bidi overrides) dropped. A lone CR
 * left in a value ended the line for some readers, so service text could add properties.
 */
function icsText(s: string): string {
  return withoutControls(
    s
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n'),
  );
}

/** Lines longer than 75 octets are folded: CRLF then one space (RFC 5545 §3.1). */
function fold(line: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= 75) return line;
  const out: string[] = [];
  let cur = '';
  let len = 0;
  for (const ch of line) {
    const n = encoder.encode(ch).length;
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

/** 20261106T133000Z */
export const icsStamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
/** 20261106 */
export const icsDate = (iso: string) => iso.slice(0, 10).replace(/-/g, '');
export const icsNextDate = (iso: string) =>
  new Date(Date.parse(iso.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');

/** The plain-text body of an entry: impact, then the numbers that are known. */
export function describeRelease(ed: EventDate): string {
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency, releaseDecimals(ed));
  const parts = [`Impact: ${String(ed.volatility).toLowerCase()}`];
  if (ed.actual !== null) parts.push(`Actual: ${f(ed.actual)}`);
  if (ed.consensus !== null) parts.push(`Consensus: ${f(ed.consensus)}`);
  const prev = previousFigures(ed);
  if (prev.current !== null)
    parts.push(
      prev.revisedFrom === null
        ? `Previous: ${f(prev.current)}`
        : `Previous: ${f(prev.current)} (revised from ${f(prev.revisedFrom)})`,
    );
  return parts.join('\n');
}

/** The provider's country codes that are not ISO 3166 (UK, EMU) mapped for the flag. */
const FLAG_REGION: Record<string, string> = { UK: 'GB', EMU: 'EU' };

/** 🇺🇸 for US, 🇪🇺 for EMU; '' for a code that is not a region. */
export function countryFlag(countryCode: string): string {
  const region = FLAG_REGION[countryCode] ?? countryCode;
  if (!/^[A-Z]{2}$/.test(region)) return '';
  return String.fromCodePoint(...[...region].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** "🇺🇸 US CPI (HIGH)": how a subscribed feed names an entry (impact visible in a month view). */
export function feedSummary(ed: EventDate): string {
  const flag = countryFlag(ed.countryCode);
  return `${flag ? `${flag} ` : ''}${ed.countryCode} ${ed.name} (${String(ed.volatility)})`;
}

export interface IcsOptions {
  /** The entry's title; default "US Nonfarm Payrolls". */
  summary?: (ed: EventDate) => string;
  /** A subscribed calendar's name and how often apps should re-read it. */
  feed?: { name: string; refreshMinutes: number };
}

/** One VCALENDAR with a VEVENT per release; `now` stamps DTSTAMP (injected for tests). */
export function toIcs(rows: readonly EventDate[], now: number, opts: IcsOptions = {}): string {
  const summary = opts.summary ?? ((ed: EventDate) => `${ed.countryCode} ${ed.name}`);
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN'];
  if (opts.feed) {
    const refresh = `PT${Math.max(1, Math.round(opts.feed.refreshMinutes))}M`;
    lines.push(
      'METHOD:PUBLISH',
      `X-WR-CALNAME:${icsText(opts.feed.name)}`,
      `REFRESH-INTERVAL;VALUE=DURATION:${refresh}`,
      `X-PUBLISHED-TTL:${refresh}`,
    );
  }
  for (const ed of rows) {
    lines.push('BEGIN:VEVENT', `UID:${icsText(ed.id)}@macrobell`, `DTSTAMP:${icsStamp(now)}`);
    if (ed.isAllDay)
      lines.push(
        `DTSTART;VALUE=DATE:${icsDate(ed.dateUtc)}`,
        `DTEND;VALUE=DATE:${icsNextDate(ed.dateUtc)}`,
      );
    else {
      const t = Date.parse(ed.dateUtc);
      lines.push(
        `DTSTART:${icsStamp(t)}`,
        `DTEND:${icsStamp(t + (ed.isSpeech ? 3_600_000 : 900_000))}`,
      );
    }
    lines.push(
      `SUMMARY:${icsText(summary(ed))}`,
      `DESCRIPTION:${icsText(describeRelease(ed))}`,
      `CATEGORIES:${icsText(ed.currencyCode)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
