/** Context for the euro: the euro area's, Germany's and France's releases and the ECB's voices. */
import {
  DESTATIS,
  HAWKISH,
  auction,
  coreCpi,
  decision,
  flashPmi,
  positioning,
  speech,
  type EventContext,
} from './kinds.js';

const HCOB = 'S&P Global for HCOB';
const ECB = 'the European Central Bank (ECB)';
const EUROSTAT = 'Eurostat';

export const EUR: Record<string, EventContext> = {
  'emu-hicp': {
    source: EUROSTAT,
    measures:
      'The flash estimate of euro-area consumer prices against a year earlier, on harmonized methods.',
    why: "The ECB's target is 2% on this measure.",
  },
  'emu-core-hicp': coreCpi(
    EUROSTAT,
    'euro-area',
    'against a year earlier, without energy, food, alcohol and tobacco',
    'A core surprise shifts ECB pricing even when energy keeps the headline steady.',
  ),
  'de-cpi': {
    source: DESTATIS,
    measures:
      "German consumer prices against a year earlier: the preliminary estimate, built from the states' figures.",
    why: 'Out a day or two before the euro-area flash, it lets forecasters correct their HICP estimate.',
  },
  'emu-gdp': {
    source: EUROSTAT,
    measures: "The quarterly change in the euro area's output, seasonally adjusted.",
    why: 'The broadest read of the euro-area economy; the flash estimate moves the euro most.',
  },
  'emu-pmi': flashPmi(
    HCOB,
    'the euro area',
    'private',
    "The first read of euro-area growth each month, factories and services together; it feeds the ECB's growth worries.",
  ),
  'emu-flash-mfg': flashPmi(
    HCOB,
    'the euro area',
    'manufacturing',
    'Euro-area industry leans on exports and on Germany; the flash shows first whether it is stabilizing.',
  ),
  'emu-flash-svc': flashPmi(
    HCOB,
    'the euro area',
    'services',
    'Services carry euro-area growth and wage-driven inflation; the ECB reads its prices-charged index.',
  ),
  'de-pmi': flashPmi(
    HCOB,
    'Germany',
    'manufacturing',
    "Germany's factories are the swing part of the euro-area economy; this is their first read of the month.",
  ),
  'de-flash-svc': flashPmi(
    HCOB,
    'Germany',
    'services',
    'Shows whether German domestic demand makes up for weak industry.',
  ),
  'fr-flash-mfg': flashPmi(
    HCOB,
    'France',
    'manufacturing',
    "The euro area's first survey of the morning; a surprise here sets up the German and euro-area releases.",
  ),
  'fr-flash-svc': flashPmi(
    HCOB,
    'France',
    'services',
    "Services are most of France's output; the reading shows whether the euro area's second economy holds up.",
  ),
  'de-ifo': {
    source: 'ifo Institute',
    measures:
      'A survey of about 9,000 German firms on their business now and over the next six months.',
    why: "Germany is the euro area's largest economy; Ifo is the most watched read of its business mood.",
  },
  'de-zew': {
    source: 'ZEW – Leibniz Centre for European Economic Research',
    measures:
      "Financial analysts' expectations for the German economy over six months (optimists minus pessimists).",
    why: 'The first sentiment survey of the month; it turns before the hard data.',
  },
  'emu-secondary-0': {
    source: EUROSTAT,
    measures: "The share of the euro area's labour force out of work, seasonally adjusted.",
    why: 'A tight labour market keeps wage growth, and so services inflation, on the ECB’s mind.',
  },
  'emu-secondary-1': {
    source: EUROSTAT,
    measures: 'The monthly change in the volume of retail trade in the euro area.',
    why: 'A late but hard read of euro-area consumers, whom the ECB counts on to carry the recovery.',
  },
  'emu-secondary-2': {
    source: 'European Commission (DG ECFIN)',
    measures:
      "The flash estimate of euro-area households' confidence: the balance of positive over negative answers.",
    why: 'Out before the month ends, it is the earliest sign of how households feel about prices and jobs.',
  },
  'emu-secondary-3': {
    source: EUROSTAT,
    measures: "The monthly change in the euro area's industrial output, seasonally adjusted.",
    why: "Out after Germany's and France's figures, it mostly confirms them; Ireland's swings can distort it.",
  },
  'emu-secondary-4': {
    source: 'sentix GmbH',
    measures:
      "A survey of investors' view of the euro-area economy, now and six months ahead (positive minus negative).",
    why: 'Out on the first Monday of the month, before ZEW and Ifo, it hints at their direction.',
  },
  'de-secondary-0': {
    source: DESTATIS,
    measures: 'The monthly change in the value of new orders received by German manufacturers.',
    why: 'Leads German output by months; big-ticket orders make it jumpy, so the trend matters more than one month.',
  },
  'de-secondary-1': {
    source: 'Federal Employment Agency (Bundesagentur für Arbeit)',
    measures:
      'The monthly change in the number of people registered as unemployed, seasonally adjusted.',
    why: 'Shows whether weak German industry is turning into job losses, which would weigh on spending.',
  },
  'de-secondary-2': {
    source: DESTATIS,
    measures: 'The monthly change in the real volume of German retail sales.',
    why: 'German households save a lot; this shows whether they spend more as inflation calms.',
  },
  'de-secondary-3': {
    source: DESTATIS,
    measures: 'Exports minus imports of German goods in euros, seasonally adjusted.',
    why: "Germany's surplus rests on demand from China and the US; a shrinking one flags tariff and competition hits.",
  },
  'de-weekly-17': auction(
    'German Finance Agency (Finanzagentur)',
    '10-year German government bonds (Bunds)',
    'average accepted yield',
    "The Bund is the euro area's benchmark; a weak sale flags doubts about demand as Germany borrows more for defence and infrastructure.",
  ),
  'emu-weekly-8': positioning(
    'euro futures (CME)',
    'The euro is the most traded currency after the dollar; a crowded net long leaves EUR/USD prone to sharp drops.',
  ),
  'emu-ecb': decision(
    ECB,
    "The ECB's rates drive the euro's yield against the dollar, the pound and the franc.",
  ),
  'emu-lagarde': {
    source: ECB,
    measures: "The President's statement and answers after the decision.",
    effect: HAWKISH,
    why: 'How the Governing Council reads the data and what it signals for the next meetings.',
  },
  'emu-speaker-5': speech(
    ECB,
    'Isabel Schnabel, the Executive Board member in charge of market operations',
    'One of the Board’s more hawkish voices; her views on when easing ends move the euro and Bund yields.',
  ),
  'emu-speaker-6': speech(
    ECB,
    "Philip Lane, the ECB's chief economist",
    'He prepares the policy proposal the Governing Council decides on; his reading of the data previews it.',
  ),
  'emu-speaker-7': speech(
    ECB,
    "the ECB's Vice-President (Luis de Guindos until May 2026, then Boris Vujčić)",
    'He presents the Financial Stability Review; his remarks on risks and on the euro’s strength draw attention.',
  ),
  'de-speaker-8': speech(
    'Deutsche Bundesbank',
    'Joachim Nagel, its President and a member of the ECB Governing Council',
    "The voice of the euro area's largest national central bank, usually on the hawkish side of the Council.",
  ),
};
