/**
 * What the desk squawk says, as a trader on a desk would: "US Nonfarm Payrolls, 275
 * thousand, consensus 200, beat" on the print; "US Nonfarm Payrolls in 10 seconds,
 * consensus 200 thousand" before it. Pure: the renderer speaks it.
 */
import type { EventDate } from './domain.js';
import { releaseDecimals, surpriseOf } from './format.js';

export interface SquawkSettings {
  /** Prints read aloud: none, watched releases, or watched and every high-impact one. */
  prints: 'off' | 'watched' | 'watched-and-high';
  /** The consensus read 10 seconds before each watched release. */
  consensus: boolean;
}

export const DEFAULT_SQUAWK: SquawkSettings = { prints: 'off', consensus: false };

/** How long before a watched release its consensus is read. */
export const CONSENSUS_LEAD_MS = 10_000;

const MAGNITUDE: Record<string, string> = {
  K: 'thousand',
  M: 'million',
  B: 'billion',
  T: 'trillion',
};

type Spoken = Pick<EventDate, 'unit' | 'potency'>;

/**
 * "275 thousand", "3.1 percent", "minus 0.2 percent"; `bare`: the number alone; with
 * `decimals`, the precision its source publishes ("1.90 percent" for an ECB hold).
 */
export function spokenValue(value: number, ed: Spoken, bare = false, decimals?: number): string {
  const abs = Math.abs(Number(value.toPrecision(12)));
  const digits = decimals !== undefined ? abs.toFixed(decimals) : String(abs);
  const sign = value < 0 ? 'minus ' : '';
  if (bare) return `${sign}${digits}`;
  const magnitude = MAGNITUDE[ed.potency ?? ''];
  const unit = ed.unit === '%' ? 'percent' : '';
  return [`${sign}${digits}`, magnitude, unit].filter(Boolean).join(' ');
}

const name = (ed: Pick<EventDate, 'countryCode' | 'name'>) => `${ed.countryCode} ${ed.name}`;

/** On the print; null before it. */
export function printText(ed: EventDate): string | null {
  if (ed.actual === null) return null;
  // Spoken as the grid shows it, the precision the source publishes: a policy rate is
  // "4.50 percent", a PMI's consensus "51.0" (finer digits of its own figures are kept).
  const d = releaseDecimals(ed);
  const parts = [name(ed), spokenValue(ed.actual, ed, false, d)];
  if (ed.consensus !== null) parts.push(`consensus ${spokenValue(ed.consensus, ed, true, d)}`);
  const surprise = surpriseOf(ed);
  if (surprise) parts.push(surprise === 'inline' ? 'in line' : surprise);
  return parts.join(', ');
}

/** Before a watched release: its consensus (or that there is none). */
export function consensusText(ed: EventDate, seconds: number): string {
  const lead = `${name(ed)} in ${seconds} seconds`;
  return ed.consensus === null
    ? `${lead}, no consensus`
    : `${lead}, consensus ${spokenValue(ed.consensus, ed, false, releaseDecimals(ed))}`;
}
