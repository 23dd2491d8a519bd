/** Formatting and surprise maths shared by alerts, tray and renderer. Pure. */
import type { EventDate, Volatility } from './domain.js';
import { VOLATILITIES } from './domain.js';
import { publishedDecimals } from './published-precision.js';

export { publishedDecimals };

const POTENCY_SUFFIX: Record<string, string> = { ZERO: '', K: 'K', M: 'M', B: 'B', T: 'T' };

/** The most decimals worth printing: more is float noise (0.1 + 0.2). */
const MAX_DECIMALS = 6;

/** How many decimals a figure was printed with (52 → 0, 4.191 → 3, 0.30000000000000004 → 1). */
function decimalsOf(value: number): number {
  for (let d = 0; d < MAX_DECIMALS; d++) {
    const scaled = value * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled))) return d;
  }
  return MAX_DECIMALS;
}

/**
 * The precision an indicator prints with: the most decimals among its figures (a PMI of
 * 52 beside 51.8 is "52.0"; a bill yield of 4.2 beside 4.191 is "4.200"). Undefined when
 * there is no figure to tell.
 */
export function valueDecimals(values: readonly (number | null | undefined)[]): number | undefined {
  let most: number | undefined;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    most = Math.max(most ?? 0, decimalsOf(v));
  }
  return most;
}

/**
 * A release's precision: the most of the decimals of its actual, consensus, previous and
 * revised, its event's usual precision when the calendar read gave a finer one
 * (`decimals`), and the precision its kind is published with (`publishedDecimals`: a policy
 * rate's hundredths, a jobless rate's tenth, payrolls in whole thousands).
 */
export function releaseDecimals(
  ed: Pick<EventDate, 'actual' | 'consensus' | 'previous' | 'revised' | 'decimals'> &
    Partial<Pick<EventDate, 'name' | 'unit' | 'potency'>>,
): number | undefined {
  const own = valueDecimals([ed.actual, ed.consensus, ed.previous, ed.revised]);
  if (own === undefined) return ed.decimals;
  const published = ed.name !== undefined ? publishedDecimals(ed) : undefined;
  return Math.max(own, ed.decimals ?? 0, published ?? 0);
}

/**
 * The previous period's figure as it stands (the service's `revised` when it revised it,
 * else `previous`) and the figure it was revised from (null when not revised): the grid,
 * the detail, the alerts and the exports read a revision alike.
 */
export function previousFigures(ed: Pick<EventDate, 'previous' | 'revised'>): {
  current: number | null;
  revisedFrom: number | null;
} {
  if (ed.revised === null || ed.revised === ed.previous) {
    return { current: ed.previous, revisedFrom: null };
  }
  return { current: ed.revised, revisedFrom: ed.previous };
}

/**
 * Format a release value the way traders read it: `275K`, `-0.3%`, `4.25%`, `$1.2B`, with
 * `decimals` when the indicator's precision is known (`52.0`, `3.00%`), else as few as
 * the value needs. The potency is the multiplier the service already applied (values come
 * in units of it).
 */
/**
 * A surprise (actual − consensus) in the unit it is measured in: a change of a figure kept
 * in % is in percentage points ("-0.1 pp" for a CPI miss, not "-0.1%", which reads as a
 * relative change); every other figure keeps its own unit ("+25K", "-¥12.0B").
 */
export function formatSurprise(
  delta: number,
  unit: string | null | undefined,
  potency: string | null | undefined,
  decimals?: number,
): string {
  if (unit === '%') return `${formatValue(delta, null, 'ZERO', decimals)} pp`;
  return formatValue(delta, unit, potency, decimals);
}

export function formatValue(
  value: number | null | undefined,
  unit: string | null | undefined,
  potency: string | null | undefined,
  decimals?: number,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const digits =
    decimals !== undefined
      ? abs.toFixed(Math.min(decimals, MAX_DECIMALS))
      : trimZeros(abs.toFixed(Number.isInteger(value) ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3));
  const sign = value < 0 && Number(digits) !== 0 ? '-' : '';
  return withUnit(`${sign}${digits}`, unit, potency);
}

/** `275` + K → `275K`; + % → `275%`; $ and B → `$275B`; another unit follows after a space. */
function withUnit(
  number: string,
  unit: string | null | undefined,
  potency: string | null | undefined,
) {
  const suffix = POTENCY_SUFFIX[potency ?? 'ZERO'] ?? '';
  const u = (unit ?? '').trim();
  const sign = number.startsWith('-') ? '-' : '';
  const digits = sign ? number.slice(1) : number;
  if (u === '%') return `${sign}${digits}${suffix}%`;
  if (u === '$' || u === '€' || u === '£' || u === '¥') return `${sign}${u}${digits}${suffix}`;
  if (u.length > 0) return `${sign}${digits}${suffix} ${u}`;
  return `${sign}${digits}${suffix}`;
}

/** The unit as a value shows it, without the number: `K`, `%`, `$B`, `M barrels`. */
export function unitLabel(unit: string | null | undefined, potency: string | null | undefined) {
  return withUnit('', unit, potency).trim();
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

export type Surprise = 'beat' | 'miss' | 'inline' | null;

/**
 * Whether a print beat expectations. The service's `isBetterThanExpected` wins; without
 * it, actual vs consensus (higher is better — the service flags the inverted indicators).
 * With no consensus nothing was expected (CFTC positions): neither beat nor miss.
 */
export function surpriseOf(
  ed: Pick<EventDate, 'actual' | 'consensus' | 'isBetterThanExpected'>,
): Surprise {
  if (ed.actual === null || ed.consensus === null) return null;
  if (ed.isBetterThanExpected === true) return 'beat';
  if (ed.isBetterThanExpected === false) {
    return ed.actual === ed.consensus ? 'inline' : 'miss';
  }
  if (ed.actual === ed.consensus) return 'inline';
  return ed.actual > ed.consensus ? 'beat' : 'miss';
}

export function volatilityRank(v: string | null | undefined): number {
  const i = VOLATILITIES.indexOf((v ?? 'NONE') as Volatility);
  return i < 0 ? 0 : i;
}

export function atLeastVolatility(v: string, min: Volatility): boolean {
  return volatilityRank(v) >= volatilityRank(min);
}

/** Mask a key for display: enough to recognise it, useless to steal. */
export function maskKey(key: string): string {
  if (key.length <= 6) return '•'.repeat(key.length);
  return `${key.slice(0, 4)}…${key.slice(-2)}`;
}

type Direction = 'above' | 'below' | 'equal' | null;

/**
 * Where the print landed against consensus: ▲ above, ▼ below. Independent of beat/miss (an
 * unemployment rate below consensus is a beat): the arrow says direction, colour says better.
 */
export function directionOf(ed: Pick<EventDate, 'actual' | 'consensus'>): Direction {
  if (ed.actual === null || ed.consensus === null) return null;
  if (ed.actual === ed.consensus) return 'equal';
  return ed.actual > ed.consensus ? 'above' : 'below';
}

/** actual − consensus, rounded to hide float noise (0.1 + 0.2); null until both are known. */
export function surpriseDelta(ed: Pick<EventDate, 'actual' | 'consensus'>): number | null {
  if (ed.actual === null || ed.consensus === null) return null;
  return Math.round((ed.actual - ed.consensus) * 1e6) / 1e6;
}

/**
 * The fewest past surprises a z-score is computed from: on 4 an NFP beat read "z +6.3",
 * a number a trader would act on and should not.
 */
export const Z_MIN_HISTORY = 8;

/**
 * How unusual a surprise is for this indicator: (surprise − mean) / standard deviation of
 * the event's own past surprises. Needs Z_MIN_HISTORY past surprises with some spread, else null.
 */
export function surpriseZ(delta: number | null, past: readonly (number | null)[]): number | null {
  if (delta === null) return null;
  const xs = past.filter((x): x is number => x !== null && Number.isFinite(x));
  if (xs.length < Z_MIN_HISTORY) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  if (!(sd > 0)) return null;
  return Math.round(((delta - mean) / sd) * 100) / 100;
}

/**
 * Times inside stored texts (alert titles and bodies) travel as tokens — `{t:ISO}` for a
 * time, `{dt:ISO}` for a date and time — and are rendered when shown, in the zone and clock
 * chosen then, so a text written at 13:30 UTC reads "8:30 AM" once New York 12 h is chosen.
 */
export function timeToken(iso: string, kind: 't' | 'dt' = 't'): string {
  return `{${kind}:${iso}}`;
}

const TIME_TOKEN = /\{(t|dt):(\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2}))\}/g;

export function renderTimeTokens(
  text: string,
  format: (iso: string, kind: 't' | 'dt') => string,
): string {
  return text.replace(TIME_TOKEN, (whole, kind: 't' | 'dt', iso: string) =>
    Number.isNaN(Date.parse(iso)) ? whole : format(iso, kind),
  );
}

/** How big the surprise was: the provider's deviation score, else none (null). */
export function surpriseSize(ed: Pick<EventDate, 'actual' | 'ratioDeviation'>): number | null {
  if (ed.actual === null || ed.ratioDeviation === null) return null;
  return Math.abs(ed.ratioDeviation);
}
