/**
 * Context for every event of the demo, as a trader's calendar gives it: who publishes the
 * figure, what it measures, how it usually moves the currency and why traders watch it.
 * Written for the demo, not copied from any calendar, one file per currency under
 * context/; descriptions.ts turns it into the event's description, one "Label: text" line
 * each, which the app's detail lays out.
 */
import { AUD } from './context/aud.js';
import { CAD } from './context/cad.js';
import { CHF } from './context/chf.js';
import { CNY } from './context/cny.js';
import { EUR } from './context/eur.js';
import { GBP } from './context/gbp.js';
import { JPY } from './context/jpy.js';
import type { EventContext } from './context/kinds.js';
import { NZD } from './context/nzd.js';
import { USD } from './context/usd.js';
import { USD_MARKETS } from './context/usd-markets.js';

export type { EventContext } from './context/kinds.js';

const PARTS = [USD, USD_MARKETS, EUR, GBP, JPY, CNY, CAD, AUD, NZD, CHF];

/** One table; a key written in two files would silently lose one text, so it stops the load. */
function merged(parts: Record<string, EventContext>[]): Record<string, EventContext> {
  const out: Record<string, EventContext> = {};
  for (const part of parts)
    for (const [key, context] of Object.entries(part)) {
      if (out[key]) throw new Error(`event context for ${key} is written twice`);
      out[key] = context;
    }
  return out;
}

export const CONTEXT: Record<string, EventContext> = merged(PARTS);
