import { renderTimeTokens } from '../../../shared/format.js';
/** Display time in the user's zone (DST-correct through Intl), storage stays UTC. */
export function zoneOf(setting: string): string | undefined {
  return setting === 'system' ? undefined : setting;
}

// Building an Intl.DateTimeFormat is costly (the first one in a tab also loads the ICU locale
// data: 25–250 ms on a busy 2-core machine) and a calendar formats thousands of dates. Each
// kind of label keeps its formatters by zone (and hour cycle), looked up without building keys.
type Kind = 'day' | 'dayLabel' | 'weekday' | 'date' | 'time-h12' | 'time-h23' | 'dateTime-h23';
const OPTIONS: Record<Kind, [string, Intl.DateTimeFormatOptions]> = {
  day: ['en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }],
  dayLabel: ['en-GB', { weekday: 'long', day: 'numeric', month: 'long' }],
  weekday: ['en-GB', { weekday: 'short' }],
  date: ['en-GB', { day: 'numeric', month: 'short', year: 'numeric' }],
  // en-US for the 12-hour clock: "8:30 AM" (en-GB writes "08:30 am", easy to misread)
  'time-h12': ['en-US', { hour: 'numeric', minute: '2-digit', hourCycle: 'h12' }],
  'time-h23': ['en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  'dateTime-h23': [
    'en-GB',
    {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    },
  ],
};
const formatters: Record<Kind, Map<string, Intl.DateTimeFormat>> = {
  day: new Map(),
  dayLabel: new Map(),
  weekday: new Map(),
  date: new Map(),
  'time-h12': new Map(),
  'time-h23': new Map(),
  'dateTime-h23': new Map(),
};
function formatter(kind: Kind, zone: string): Intl.DateTimeFormat {
  const byZone = formatters[kind];
  let f = byZone.get(zone);
  if (!f) {
    const [locale, options] = OPTIONS[kind];
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: zoneOf(zone) });
    byZone.set(zone, f);
  }
  return f;
}

/**
 * Build the calendar's formatters for a zone ahead of need (e.g. while the calendar is
 * being fetched), so the first render after the data arrives does not pay for them.
 */
export function warmFormatters(zone: string, hourCycle: 'h12' | 'h23'): void {
  formatter('day', zone);
  formatter('dayLabel', zone);
  formatter(`time-${hourCycle}`, zone);
}

export function dayKey(iso: string, zone: string): string {
  return formatter('day', zone).format(new Date(iso));
}

export function dayLabel(iso: string, zone: string): string {
  return formatter('dayLabel', zone).format(new Date(iso));
}

export function timeLabel(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return formatter(`time-${hourCycle}`, zone).format(new Date(iso));
}

/** "Mon 01:30": a moment within the coming week. */
export function weekdayTimeLabel(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return `${formatter('weekday', zone).format(new Date(iso))} ${timeLabel(iso, zone, hourCycle)}`;
}

/**
 * "6 Nov 2026, 08:30", or on the 12-hour clock "6 Nov 2026, 8:30 AM": the time written as
 * the grid writes it (en-GB would give the detail "8:30 am" beside the grid's "8:30 AM").
 */
export function dateTimeLabel(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  if (hourCycle === 'h23') return formatter('dateTime-h23', zone).format(new Date(iso));
  return `${formatter('date', zone).format(new Date(iso))}, ${timeLabel(iso, zone, 'h12')}`;
}

/** All-day items (holidays) belong to their own calendar date, whatever the display zone. */
function utcDayKey(iso: string): string {
  return iso.slice(0, 10);
}

/** The local day of a row: its date for all-day items, else the day in `zone`. */
export function rowDayKey(ed: { dateUtc: string; isAllDay: boolean }, zone: string): string {
  return ed.isAllDay ? utcDayKey(ed.dateUtc) : dayKey(ed.dateUtc, zone);
}

/** "New York · EST" or "UTC" or "Europe/Paris · GMT+1": the zone the calendar shows. */
const zoneNameFormats = new Map<string, Intl.DateTimeFormat>();
export function zoneLabel(zone: string, at: number): string {
  let f = zoneNameFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zoneOf(zone), timeZoneName: 'short' });
    zoneNameFormats.set(zone, f);
  }
  const short = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const name = f.resolvedOptions().timeZone;
  const city = (name.split('/').pop() ?? name).replace(/_/g, ' ');
  return city === short || !short ? city : `${city} · ${short}`;
}

/** Midnight starting the day `key` (YYYY-MM-DD) in `zone`, as Unix ms. */
export function startOfDay(key: string, zone: string): number {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // the zone's offset at that moment, found by formatting it back (DST-correct to the hour)
  const offsetAt = (t: number) => {
    const [yy, mm, dd] = dayKey(new Date(t).toISOString(), zone).split('-').map(Number) as [
      number,
      number,
      number,
    ];
    const hh = Number(timeLabel(new Date(t).toISOString(), zone, 'h23').slice(0, 2));
    const mi = Number(timeLabel(new Date(t).toISOString(), zone, 'h23').slice(3, 5));
    return Date.UTC(yy, mm - 1, dd, hh, mi) - t;
  };
  let t = guess - offsetAt(guess);
  t = guess - offsetAt(t);
  return t;
}

/**
 * A countdown read at a glance in the calendar header: "12:34" (m:ss) in the last hour,
 * "3h 05m" within a day, "4d 23h" beyond; "0:00" once due.
 */
export function clockCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total < 3600) {
    return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
  }
  const mins = Math.floor(total / 60);
  if (mins < 24 * 60) return `${Math.floor(mins / 60)}h ${String(mins % 60).padStart(2, '0')}m`;
  return `${Math.floor(mins / 1440)}d ${Math.floor((mins % 1440) / 60)}h`;
}

/** "in 1h 05m", "in 42s", "3m ago", "in 7d 19h". */
export function countdown(targetMs: number, now: number): string {
  const d = Math.round((targetMs - now) / 1000);
  const abs = Math.abs(d);
  const days = Math.floor(abs / 86400);
  if (days > 0) {
    const hours = Math.floor((abs % 86400) / 3600);
    return d >= 0 ? `in ${days}d ${hours}h` : `${days}d ${hours}h ago`;
  }
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const text =
    h > 0
      ? `${h}h ${String(m).padStart(2, '0')}m`
      : m > 0
        ? `${m}m ${String(s).padStart(2, '0')}s`
        : `${s}s`;
  return d >= 0 ? `in ${text}` : `${text} ago`;
}

export function ago(ms: number | null, now: number): string {
  if (ms === null) return 'never';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  return `${Math.floor(s / 3600)}h ago`;
}

/** A stored text with `{t:ISO}` / `{dt:ISO}` time tokens, in today's zone and clock. */
export function renderTimes(text: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return renderTimeTokens(text, (iso, kind) =>
    kind === 't' ? timeLabel(iso, zone, hourCycle) : dateTimeLabel(iso, zone, hourCycle),
  );
}

/**
 * The zones a trader can choose: the system's, UTC and GMT first (traders think in them,
 * and the engine's IANA list leaves them out), then every IANA zone the engine knows.
 */
export function zoneChoices(
  supported: readonly string[] | undefined = (
    Intl as unknown as { supportedValuesOf?: (k: string) => string[] }
  ).supportedValuesOf?.('timeZone'),
): string[] {
  const fixed = ['UTC', 'GMT'];
  return ['system', ...fixed, ...(supported ?? []).filter((z) => !fixed.includes(z))];
}
