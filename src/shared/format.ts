/** Formatting and surprise maths shared by alerts, tray and renderer. Pure. */
import type { EventDate, Volatility } from './domain.js';
import { VOLATILITIES } from './domain.js';

const POTENCY_SUFFIX: Record<string, string> = { ZERO: '', K: 'K', M: 'M', B: 'B', T: 'T' };

/**
 * Format a release value the way traders read it: `275K`, `-0.3%`, `4.25%`, `$1.2B`.
 * The potency is the multiplier the service already applied (values come in units of it).
 */
export function formatValue(
  value: number | null | undefined,
  unit: string | null | undefined,
  potency: string | null | undefined,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const suffix = POTENCY_SUFFIX[potency ?? 'ZERO'] ?? '';
  const abs = Math.abs(value);
  const decimals = Number.isInteger(value) ? 0 : abs >= 100 ? 1 : abs >= 10 ? 2 : abs >= 1 ? 2 : 3;
  const digits = trimZeros(abs.toFixed(decimals));
  const sign = value < 0 ? '-' : '';
  const u = (unit ?? '').trim();
  if (u === '%') return `${sign}${digits}${suffix}%`;
  if (u === '$' || u === '€' || u === '£' || u === '¥') return `${sign}${u}${digits}${suffix}`;
  if (u.length > 0) return `${sign}${digits}${suffix} ${u}`;
  return `${sign}${digits}${suffix}`;
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

export type Surprise = 'beat' | 'miss' | 'inline' | null;

/**
 * Whether a print beat expectations. The service's `isBetterThanExpected` wins; without
 * it, actual vs consensus (higher is better — the service flags the inverted indicators).
 */
export function surpriseOf(
  ed: Pick<EventDate, 'actual' | 'consensus' | 'isBetterThanExpected'>,
): Surprise {
  if (ed.actual === null) return null;
  if (ed.isBetterThanExpected === true) return 'beat';
  if (ed.isBetterThanExpected === false) {
    return ed.consensus !== null && ed.actual === ed.consensus ? 'inline' : 'miss';
  }
  if (ed.consensus === null) return null;
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
