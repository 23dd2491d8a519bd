/**
 * News written from the demo calendar itself: a story after each notable print and a preview
 * before each high-impact one, tagged with the currency and its pair and filed under the
 * category that fits. The demo's news then reads like the week's calendar, not a loop.
 */
import { formatValue, releaseDecimals } from '../../shared/format.js';
import type { SimEventDate } from './calendar.js';

export const PAIRS: Record<string, string> = {
  USD: 'EUR/USD',
  EUR: 'EUR/USD',
  GBP: 'GBP/USD',
  JPY: 'USD/JPY',
  AUD: 'AUD/USD',
  CAD: 'USD/CAD',
  CHF: 'USD/CHF',
  NZD: 'NZD/USD',
  CNY: 'USD/CNH',
};

interface ReleaseStory {
  /** The event date the story is about. */
  about: string;
  title: Record<string, string>;
  body: Record<string, string>;
  tags: string[];
  category: { Id: string; Name: string };
  publishedMs: number;
}

const CB = { Id: 'c-cb', Name: 'Central Banks' };
const MACRO = { Id: 'c-macro', Name: 'Macroeconomics' };
const FX = { Id: 'c-fx', Name: 'Forex' };

const isPolicy = (name: string) => /Rate Decision|Refinancing|Loan Prime/.test(name);

/** A story on a print: beat or miss against consensus, and what the currency did. */
export function afterPrint(ed: SimEventDate, delayMin: number): ReleaseStory | null {
  if (ed.actual === null) return null;
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency, releaseDecimals(ed));
  const pair = PAIRS[ed.currencyCode] ?? ed.currencyCode;
  const who = `${ed.countryCode} ${ed.name}`;
  const vs = ed.consensus === null ? '' : ` vs ${f(ed.consensus)} expected`;
  const better = ed.isBetterThanExpected;
  const moved = better === null ? 'little changed' : better ? 'firmer' : 'softer';
  const verb = better === null ? 'in line' : better ? 'beats' : 'misses';
  const title = {
    'en-US': isPolicy(ed.name)
      ? `${who}: policy rate at ${f(ed.actual)}${vs}; ${ed.currencyCode} ${moved}`
      : ed.consensus === null
        ? `${who} at ${f(ed.actual)}, after ${f(ed.previous)}` // nothing was expected of it
        : `${who} ${verb === 'in line' ? 'comes in line' : `${verb} expectations`} at ${f(ed.actual)}${vs}`,
    'es-ES': `${who}: ${f(ed.actual)}${ed.consensus === null ? '' : ` frente a ${f(ed.consensus)} esperado`}`,
    'de-DE': `${who}: ${f(ed.actual)}${ed.consensus === null ? '' : ` nach ${f(ed.consensus)} erwartet`}`,
  };
  const body = {
    'en-US': `${who} came in at ${f(ed.actual)}${vs}, after ${f(ed.previous)} previously. The ${ed.currencyCode} ${better === null ? 'was little changed' : `turned ${moved}`} in ${pair} trading in the minutes after the release.`,
    'es-ES': `${who} se publicó en ${f(ed.actual)}, tras ${f(ed.previous)} en el dato anterior. El ${pair} reaccionó tras la publicación.`,
    'de-DE': `${who} lag bei ${f(ed.actual)}, nach zuvor ${f(ed.previous)}. ${pair} reagierte unmittelbar nach der Veröffentlichung.`,
  };
  return {
    about: ed.id,
    title,
    body,
    tags: [...new Set([ed.currencyCode, pair])],
    category: isPolicy(ed.name) ? CB : MACRO,
    publishedMs: Date.parse(ed.dateUtc) + delayMin * 60_000,
  };
}

/** A preview a day before a high-impact release. */
function preview(ed: SimEventDate, hoursBefore: number): ReleaseStory {
  const f = (v: number | null) => formatValue(v, ed.unit, ed.potency, releaseDecimals(ed));
  const pair = PAIRS[ed.currencyCode] ?? ed.currencyCode;
  const who = `${ed.countryCode} ${ed.name}`;
  const exp = ed.consensus === null ? '' : `, expected at ${f(ed.consensus)}`;
  return {
    about: ed.id,
    title: {
      'en-US': `${who} preview: what to expect for the ${ed.currencyCode}`,
      'es-ES': `Previa de ${who}: qué esperar para el ${ed.currencyCode}`,
      'de-DE': `Vorschau ${who}: Was für den ${ed.currencyCode} zu erwarten ist`,
    },
    body: {
      'en-US': `Markets turn to ${who}${exp} (previous ${f(ed.previous)}). A surprise either way would move ${pair}.`,
      'es-ES': `Los mercados esperan ${who}${ed.consensus === null ? '' : ` con un consenso de ${f(ed.consensus)}`}.`,
      'de-DE': `Die Märkte blicken auf ${who}${ed.consensus === null ? '' : `, erwartet werden ${f(ed.consensus)}`}.`,
    },
    tags: [...new Set([ed.currencyCode, pair])],
    category: isPolicy(ed.name) ? CB : FX,
    publishedMs: Date.parse(ed.dateUtc) - hoursBefore * 3_600_000,
  };
}

/** Stories for the releases around `now`: one per print of the last week (as autoplay writes
 * one per print), previews of the next two days. */
export function releaseStories(
  eventDates: readonly SimEventDate[],
  now: number,
  /** A draw of its own for each release, so a story's time does not depend on the others. */
  draw: (eventDateId: string) => number,
): ReleaseStory[] {
  const out: ReleaseStory[] = [];
  for (const ed of eventDates) {
    const t = Date.parse(ed.dateUtc);
    const rank = ed.volatility === 'HIGH' ? 3 : ed.volatility === 'MEDIUM' ? 2 : 1;
    if (ed.isSpeech || ed.isAllDay) continue;
    if (t < now && t > now - 7 * 86_400_000) {
      const s = afterPrint(ed, 2 + Math.floor(draw(ed.id) * 12));
      if (s && s.publishedMs < now) out.push(s);
    } else if (rank === 3 && t >= now && t < now + 2 * 86_400_000) {
      const s = preview(ed, 10 + Math.floor(draw(ed.id) * 14));
      if (s.publishedMs < now) out.push(s);
    }
  }
  return out;
}
