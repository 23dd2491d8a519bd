/** Display time in the user's zone (DST-correct through Intl), storage stays UTC. */
export function zoneOf(setting: string): string | undefined {
  return setting === 'system' ? undefined : setting;
}

// Building an Intl.DateTimeFormat is costly and a calendar formats thousands of dates.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(
  locale: string,
  zone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: zoneOf(zone) });
    formatters.set(key, f);
  }
  return f;
}

export function dayKey(iso: string, zone: string): string {
  return formatter('en-CA', zone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

export function dayLabel(iso: string, zone: string): string {
  return formatter('en-GB', zone, { weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(iso),
  );
}

export function timeLabel(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return formatter('en-GB', zone, { hour: '2-digit', minute: '2-digit', hourCycle }).format(
    new Date(iso),
  );
}

export function dateTimeLabel(iso: string, zone: string, hourCycle: 'h12' | 'h23'): string {
  return formatter('en-GB', zone, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle,
  }).format(new Date(iso));
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
