/** Display time in the user's zone (DST-correct through Intl), storage stays UTC. */
export function zoneOf(setting: string): string | undefined {
  return setting === 'system' ? undefined : setting;
}

// Building an Intl.DateTimeFormat is costly (the first one in a tab also loads the ICU locale
// data: 25–250 ms on a busy 2-core machine) and a calendar formats thousands of dates. Each
// kind of label keeps its formatters by zone (and hour cycle), looked up without building keys.
type Kind = 'day' | 'dayLabel' | 'time-h12' | 'time-h23' | 'dateTime-h12' | 'dateTime-h23';
const dateTime = (hourCycle: 'h12' | 'h23'): [string, Intl.DateTimeFormatOptions] => [
  'en-GB',
  {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle,
  },
];
const OPTIONS: Record<Kind, [string, Intl.DateTimeFormatOptions]> = {
  day: ['en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }],
  dayLabel: ['en-GB', { weekday: 'long', day: 'numeric', month: 'long' }],
  'time-h12': ['en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h12' }],
  'time-h23': ['en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  'dateTime-h12': dateTime('h12'),
  'dateTime-h23': dateTime('h23'),
};
const formatters: Record<Kind, Map<string, Intl.DateTimeFormat>> = {
  day: new Map(),
  dayLabel: new Map(),
  'time-h12': new Map(),
  'time-h23': new Map(),
  'dateTime-h12': new Map(),
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

export function dateTimeLabel(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return formatter(`dateTime-${hourCycle}`, zone).format(new Date(iso));
}

/** "in 1h 05m", "in 42s", "3m ago". */
export function countdown(targetMs: number, now: number): string {
  const d = Math.round((targetMs - now) / 1000);
  const abs = Math.abs(d);
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
