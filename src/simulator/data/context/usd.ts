/** Context for the US dollar's monthly and quarterly releases and the Fed's decisions. */
import {
  BEA,
  BLS,
  CENSUS,
  HAWKISH,
  coreCpi,
  decision,
  flashPmi,
  type EventContext,
} from './kinds.js';

const FED_BOARD = 'Federal Reserve Board';
const ISM = 'Institute for Supply Management (ISM)';

export const USD: Record<string, EventContext> = {
  'us-nfp': {
    source: BLS,
    measures:
      'The change in the number of people on payrolls outside farming, from a survey of employers.',
    why: 'The broadest monthly read of US hiring, first Friday of the month; it moves the dollar, yields and stocks more than almost any release.',
  },
  'us-unemployment': {
    source: BLS,
    measures:
      'The share of the labour force without a job and looking for one, from a survey of households.',
    why: "Half of the Fed's mandate; a rise signals slack and earlier rate cuts.",
  },
  'us-ahe-mm': {
    source: BLS,
    measures:
      'The change in the average hourly pay of private-sector employees, in the jobs report.',
    why: 'Wage growth feeds services inflation; a hot print can outweigh the payrolls headline.',
  },
  'us-cpi-mm': {
    source: BLS,
    measures:
      'The monthly change in the prices urban consumers pay for a basket of goods and services.',
    why: 'The first full read of US inflation each month; it resets the path the market prices for the Fed.',
  },
  'us-cpi-yy': {
    source: BLS,
    measures: 'Consumer prices against the same month a year earlier.',
    why: 'The inflation rate headlines quote; read beside the monthly change and the core.',
  },
  'us-core-cpi-mm': coreCpi(
    BLS,
    'US',
    'from the month before',
    'The number the dollar trades on at 8:30 ET: the Fed sets rates on underlying inflation, and the monthly core shows it a tenth at a time.',
  ),
  'us-core-cpi-yy': coreCpi(
    BLS,
    'US',
    'against a year earlier',
    "The trend of underlying US inflation against the Fed's 2% goal; it turns slowly, so a miss of a tenth is news.",
  ),
  'us-core-pce': {
    source: BEA,
    measures: 'The monthly change in prices of what households consume, without food and energy.',
    why: "The Fed's preferred inflation gauge, the one its 2% target refers to; CPI and PPI usually let analysts guess it closely.",
  },
  'us-secondary-0': {
    source: BLS,
    measures: 'The monthly change in the prices domestic producers get for their output.',
    why: 'Pipeline inflation; some of its parts feed straight into the PCE estimate.',
  },
  'us-gdp': {
    source: BEA,
    measures: 'The annualized quarterly change in the value of all goods and services produced.',
    why: 'The broadest measure of the economy; the advance estimate moves markets, the later ones less.',
  },
  'us-retail': {
    source: CENSUS,
    measures: 'The monthly change in the value of sales at retailers and food services.',
    why: 'Consumer spending is about two thirds of the economy; this is its first monthly read.',
  },
  'us-core-retail': {
    source: CENSUS,
    measures:
      'Retail sales without motor vehicles and parts, whose prices and volumes swing the total.',
    why: 'The steadier signal of consumer demand inside the retail release.',
  },
  'us-ism-mfg': {
    source: ISM,
    measures: 'A survey of purchasing managers at US manufacturers; above 50 means expansion.',
    why: 'Out on the first business day, it sets the tone for the month; its prices and employment parts are read too.',
  },
  'us-ism-svc': {
    source: ISM,
    measures: 'A survey of purchasing managers at US services firms; above 50 means expansion.',
    why: 'Services are most of the US economy; its prices-paid index is watched for sticky inflation.',
  },
  'us-flash-mfg': flashPmi(
    'S&P Global',
    'the US',
    'manufacturing',
    'The earliest read on US factories each month, a week before ISM; a move across 50 shifts growth expectations.',
  ),
  'us-flash-svc': flashPmi(
    'S&P Global',
    'the US',
    'services',
    'An early read on services, most of US output and most of its sticky inflation.',
  ),
  'us-secondary-1': {
    source: `${FED_BOARD} (G.17 release)`,
    measures: 'The monthly change in the output of US factories, mines and utilities.',
    why: 'Hard data on the industrial side, which swings more than services and turns first in a slowdown.',
  },
  'us-secondary-2': {
    source: 'University of Michigan Surveys of Consumers',
    measures:
      "Households' view of their finances and the economy, now and a year ahead; a preliminary reading mid-month, a final one at its end.",
    why: 'Its one- and five-year inflation expectations are read at the Fed, sometimes more than the headline index.',
  },
  'us-secondary-3': {
    source: CENSUS,
    measures:
      'The monthly change in new orders for goods meant to last three years or more, from aircraft to machinery.',
    why: 'A lead on factory output and business investment, though aircraft orders make the headline jump.',
  },
  'us-secondary-4': {
    source: 'National Association of Realtors (NAR)',
    measures: 'Closed sales of previously owned homes in the month, at an annual rate.',
    why: 'Most US home sales are of existing homes; they show how mortgage rates bite on households.',
  },
  'us-secondary-5': {
    source: BLS,
    measures:
      'Job openings on the last business day of the month before last, from the Job Openings and Labor Turnover Survey.',
    why: 'Openings per unemployed worker is a gauge of labour-market tightness the Fed watches closely.',
  },
  'us-secondary-6': {
    source: 'ADP Research, with the Stanford Digital Economy Lab',
    measures:
      'The monthly change in private-sector employment, from the payroll data ADP processes.',
    why: 'Out two days before the official jobs report; a big miss shifts bets on payrolls, though the two often differ.',
  },
  'us-secondary-7': {
    source: `${CENSUS} and HUD`,
    measures:
      'New housing units authorized by local permit offices in the month, at an annual rate.',
    why: 'Permits come before starts, so they are the earliest sign of where home building is heading.',
  },
  'us-housing': {
    source: `${CENSUS} and HUD`,
    measures: 'New residential construction projects begun in the month, at an annual rate.',
    why: 'Housing is the most rate-sensitive part of the economy; starts show how Fed policy bites.',
  },
  'us-trade': {
    source: `${CENSUS} and ${BEA}`,
    measures: 'Exports minus imports of US goods and services in the month.',
    why: 'Net exports feed GDP; a swing in the deficit moves quarterly growth estimates and tariff debates.',
  },
  'us-fed': decision(
    'the Federal Reserve (FOMC)',
    'The federal funds rate prices every dollar asset; the statement and the dot plot reset rate expectations.',
  ),
  'us-powell': {
    source: 'the Federal Reserve',
    measures: "The Chair's prepared remarks and answers after the FOMC decision.",
    effect: HAWKISH,
    why: 'The guidance on the next meetings often moves markets more than the decision itself.',
  },
};
