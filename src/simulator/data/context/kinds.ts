/**
 * The shape of an event's context and the few kinds that share a wording (decisions, flash
 * PMIs, core inflation, speeches, CFTC positioning, auctions). Each event still says why
 * traders care in its own words: the kinds take that sentence from the caller.
 */

export interface EventContext {
  source: string;
  measures: string;
  /** Why a desk watches it. */
  why: string;
  /**
   * How a surprise usually moves the currency; by default from the figure's direction
   * (actual above forecast is good, below for joblessness).
   */
  effect?: string;
  /** How often, when the indicator's schedule kind says it wrong (a holiday, a budget). */
  frequency?: string;
}

export const BLS = 'U.S. Bureau of Labor Statistics (BLS)';
export const CENSUS = 'U.S. Census Bureau';
export const BEA = 'U.S. Bureau of Economic Analysis (BEA)';
export const EIA = 'U.S. Energy Information Administration (EIA)';
export const TREASURY = 'U.S. Department of the Treasury';
export const ONS = 'Office for National Statistics (ONS)';
export const DESTATIS = 'Federal Statistical Office of Germany (Destatis)';
export const STATCAN = 'Statistics Canada';
export const ABS = 'Australian Bureau of Statistics (ABS)';
export const STATSNZ = 'Stats NZ';
export const NBS = 'National Bureau of Statistics of China (NBS)';
export const FSO = 'Swiss Federal Statistical Office (FSO)';
export const STATS_JAPAN = 'Statistics Bureau of Japan';
export const CFTC = 'U.S. Commodity Futures Trading Commission (CFTC)';
export const HAWKISH = 'Tone more hawkish than expected = good for currency';

export const decision = (bank: string, why: string): EventContext => ({
  source: bank,
  measures: `The policy rate ${bank} sets at its scheduled meeting, with its statement.`,
  effect: 'Rate above forecast, or a more hawkish statement = good for currency',
  why,
});

export const flashPmi = (
  agency: string,
  region: string,
  sector: string,
  why: string,
): EventContext => ({
  source: agency,
  measures: `A survey of purchasing managers in ${region}'s ${sector} sector, from most of the month's answers, gathered by about the 20th; above 50 means activity grew.`,
  why,
});

export const coreCpi = (source: string, place: string, gauge: string, why: string) => ({
  source,
  measures: `The change in ${place} consumer prices ${gauge}, leaving out the most volatile items.`,
  why,
});

/** A policymaker's speech: no figure, the tone is the news. */
export const speech = (source: string, who: string, why: string): EventContext => ({
  source,
  measures: `No figure: a speech by ${who}, with questions at some events.`,
  effect: 'No figure; a tone more hawkish than expected = good for currency',
  why,
});

/** Speculators' positions in a futures market, from the weekly Commitments of Traders. */
export const positioning = (market: string, why: string): EventContext => ({
  source: CFTC,
  measures: `Non-commercial traders' (speculators') long minus short contracts in ${market}, as of the Tuesday before; reported on Friday.`,
  effect:
    'No forecast; a growing net long shows rising bets on the market, extremes warn of a crowded trade',
  why,
});

/**
 * A government debt auction: the yield it sold at (`yieldKind`: the US sells at one
 * clearing yield, Germany and the UK at the bids' own yields, so an average).
 */
export const auction = (
  source: string,
  paper: string,
  yieldKind: string,
  why: string,
): EventContext => ({
  source,
  measures: `The ${yieldKind} at the auction of ${paper}.`,
  effect:
    'Small; a yield above forecast can support the currency, though it also means weak demand for the debt',
  why,
});
