/** Context for the franc: the federal statistics, SECO, the surveys and the Swiss National Bank. */
import { FSO, coreCpi, decision, positioning, speech, type EventContext } from './kinds.js';

const SNB = 'the Swiss National Bank (SNB)';

export const CHF: Record<string, EventContext> = {
  'ch-cpi': {
    source: FSO,
    measures: 'Swiss consumer prices against a year earlier.',
    why: 'The SNB aims for inflation between 0 and 2%; a print near zero keeps negative rates on the table.',
  },
  'ch-core-cpi': coreCpi(
    FSO,
    'Swiss',
    'against a year earlier, without fresh and seasonal products, energy and fuel',
    'With the headline near zero, the core tells whether Swiss prices are truly falling or only cheapened by the strong franc.',
  ),
  'ch-kof': {
    source: 'KOF Swiss Economic Institute (ETH Zurich)',
    measures: 'A composite of indicators that tends to lead Swiss growth.',
    why: 'The timeliest read of where the Swiss economy is heading.',
  },
  'ch-secondary-0': {
    source: 'State Secretariat for Economic Affairs (SECO)',
    measures:
      'The share of the labour force registered as unemployed at job centres, seasonally adjusted.',
    why: 'Swiss joblessness is low and moves slowly; a rise flags that the strong franc and tariffs hurt exporters.',
  },
  'ch-secondary-1': {
    source: 'Federal Office for Customs and Border Security (FOCBS)',
    measures: 'Exports minus imports of Swiss goods in the month, in francs.',
    why: 'Pharmaceuticals and gold swing it; the steady surplus is one reason the franc stays strong.',
  },
  'ch-secondary-2': {
    source: 'procure.ch, with UBS',
    measures: 'A survey of purchasing managers at Swiss manufacturers; above 50 means expansion.',
    why: 'Swiss industry exports most of what it makes; the PMI shows how it copes with the franc and US tariffs.',
  },
  'ch-weekly-19': {
    source: SNB,
    measures:
      'The sight deposits banks and the Confederation hold at the SNB, in francs, at the end of the week before.',
    effect: 'A jump can mean the SNB sold francs to weaken them = bad for currency',
    why: 'The quickest hint of SNB intervention in the currency market, which the bank itself reports only quarterly.',
  },
  'ch-weekly-13': positioning(
    'Swiss franc futures (CME)',
    "The franc is a haven; a swing in speculators' bets on it tracks fear in the wider market.",
  ),
  'ch-snb': decision(
    SNB,
    "The SNB sets the franc's rate quarterly and may intervene in currency markets; its words on the franc move it.",
  ),
  'ch-speaker-15': speech(
    SNB,
    'Martin Schlegel, Chairman of its Governing Board',
    'The SNB can act through the franc as well as rates; his words on negative rates and intervention move EUR/CHF.',
  ),
};
