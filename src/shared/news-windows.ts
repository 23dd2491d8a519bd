/**
 * News windows: many funded-trader rules forbid trading from N minutes before to N minutes
 * after a HIGH release. Pure: the tray counts down to the next window, the calendar shades
 * them, the core alerts when one opens and closes — all from these few functions.
 */
import type { EventDate, Volatility } from './domain.js';

export interface NewsWindowSettings {
  enabled: boolean;
  minutesBefore: number;
  minutesAfter: number;
  /** The impacts whose releases open a window. */
  impacts: Volatility[];
  /** A notification when a window opens and when it closes. */
  alerts: boolean;
}

export const DEFAULT_NEWS_WINDOW: NewsWindowSettings = {
  enabled: false,
  minutesBefore: 2,
  minutesAfter: 2,
  impacts: ['HIGH'],
  alerts: false,
};

export interface NewsWindow {
  /** Epoch ms: no trading from `start` to `end`. */
  start: number;
  end: number;
  /** The releases inside, in time order (overlapping windows are merged into one). */
  releases: Pick<EventDate, 'id' | 'eventId' | 'name' | 'countryCode' | 'dateUtc'>[];
}

type WindowInput = Pick<
  EventDate,
  'id' | 'eventId' | 'name' | 'countryCode' | 'dateUtc' | 'volatility'
>;

const MINUTE = 60_000;

/** The windows of `events` under `s`, merged where they overlap or touch, in time order. */
export function newsWindows(events: readonly WindowInput[], s: NewsWindowSettings): NewsWindow[] {
  if (!s.enabled) return [];
  const covered = new Set<string>(s.impacts);
  const sorted = events
    .filter((e) => covered.has(e.volatility))
    .map((e) => ({ e, t: Date.parse(e.dateUtc) }))
    .filter(({ t }) => Number.isFinite(t))
    .sort((a, b) => a.t - b.t);
  const out: NewsWindow[] = [];
  for (const { e, t } of sorted) {
    const start = t - s.minutesBefore * MINUTE;
    const end = t + s.minutesAfter * MINUTE;
    const { id, eventId, name, countryCode, dateUtc } = e;
    const release = { id, eventId, name, countryCode, dateUtc };
    const last = out.at(-1);
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
      last.releases.push(release);
    } else out.push({ start, end, releases: [release] });
  }
  return out;
}

/** The window open at `now`, else the next one (null: none ahead). */
export function currentOrNext(windows: readonly NewsWindow[], now: number): NewsWindow | null {
  return windows.find((w) => w.end > now) ?? null;
}

/** Whether an instant (epoch ms) falls inside one of the windows. */
export function inNewsWindow(windows: readonly NewsWindow[], t: number): boolean {
  return windows.some((w) => t >= w.start && t <= w.end);
}

/** The names traders say: "NFP", "CPI", "FOMC"; else the release's own name. */
const SHORT_NAMES: [RegExp, string][] = [
  [/non-?farm payrolls/i, 'NFP'],
  [/fed interest rate decision|fomc/i, 'FOMC'],
  [/\b(core )?consumer price index\b|\bcpi\b/i, 'CPI'],
  [/producer price index|\bppi\b/i, 'PPI'],
  [/gross domestic product|\bgdp\b/i, 'GDP'],
  [/\bpce\b/i, 'PCE'],
  [/retail sales/i, 'Retail Sales'],
  [/\bism\b.*manufacturing/i, 'ISM Mfg'],
  [/\bism\b.*services/i, 'ISM Services'],
  [/ecb.*(rate|refinancing)|main refinancing/i, 'ECB'],
  [/boe.*rate|bank of england.*rate/i, 'BoE'],
  [/boj.*rate|bank of japan.*rate/i, 'BoJ'],
  [/interest rate decision/i, 'Rate decision'],
];

export function shortName(e: Pick<EventDate, 'name' | 'countryCode'>): string {
  const hit = SHORT_NAMES.find(([re]) => re.test(e.name));
  if (hit) return `${e.countryCode} ${hit[1]}`;
  return e.name.length > 24 ? `${e.name.slice(0, 23)}…` : e.name;
}

/** "1:45" (h:mm) an hour or more ahead, "12m", then "40s" in the last minute. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 60) return `${s}s`;
  const mins = Math.ceil(s / 60);
  if (mins < 60) return `${mins}m`;
  return `${Math.floor(mins / 60)}:${String(mins % 60).padStart(2, '0')}`;
}

/**
 * The window's name in words: its first release, "and 2 more" for the others ("US CPI +1"
 * read as a figure). Releases of one short name count once: CPI m/m and y/y are "US CPI".
 */
export function windowName(w: NewsWindow): string {
  const names = [...new Set(w.releases.map(shortName))];
  const first = names[0] ?? 'News';
  return names.length > 1 ? `${first} and ${names.length - 1} more` : first;
}

/**
 * The tray's title: "US NFP in 1:45" before a window, "US NFP window · 3m left" inside it,
 * null with none ahead (then the tray shows nothing extra).
 */
export function newsWindowTitle(windows: readonly NewsWindow[], now: number): string | null {
  const w = currentOrNext(windows, now);
  if (!w) return null;
  if (w.start <= now) return `${windowName(w)} window · ${countdown(w.end - now)} left`;
  return `${windowName(w)} in ${countdown(w.start - now)}`;
}
