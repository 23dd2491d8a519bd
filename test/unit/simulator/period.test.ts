/**
 * Each demo release carries the period it reports on (issue #26, defect 3), not one period
 * for all: a monthly the month before, a weekly the week before, a quarterly the last
 * quarter, an auction or a decision its own day, a flash survey its own month.
 */
import { describe, expect, it } from 'vitest';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';
import { periodOf } from '../../../src/simulator/data/period.js';

const ind = (country: string, name: string) => {
  const found = INDICATORS.find((i) => i.country === country && i.name === name);
  if (!found) throw new Error(`no indicator ${country} ${name}`);
  return found;
};

const CASES: [string, string, string, string, string][] = [
  ['US', 'Nonfarm Payrolls', '2026-11-06T13:30:00Z', '2026-10-01T00:00:00Z', 'MONTH'],
  ['US', 'Consumer Price Index (YoY)', '2026-01-13T13:30:00Z', '2025-12-01T00:00:00Z', 'MONTH'],
  ['US', 'Initial Jobless Claims', '2026-11-19T13:30:00Z', '2026-11-09T00:00:00Z', 'WEEK'],
  ['US', 'EIA Crude Oil Stocks Change', '2026-11-18T15:30:00Z', '2026-11-09T00:00:00Z', 'WEEK'],
  ['US', 'Baker Hughes US Oil Rig Count', '2026-11-20T18:00:00Z', '2026-11-16T00:00:00Z', 'WEEK'],
  ['US', '4-Week Bill Auction', '2026-11-19T15:30:00Z', '2026-11-19T00:00:00Z', 'DAY'],
  ['US', '10-Year Note Auction', '2026-11-10T18:00:00Z', '2026-11-10T00:00:00Z', 'DAY'],
  ['US', 'Fed Interest Rate Decision', '2026-12-09T19:00:00Z', '2026-12-09T00:00:00Z', 'DAY'],
  [
    'US',
    'Gross Domestic Product Annualized',
    '2026-10-29T12:30:00Z',
    '2026-07-01T00:00:00Z',
    'QUARTER',
  ],
  [
    'US',
    'Gross Domestic Product Annualized',
    '2026-01-29T13:30:00Z',
    '2025-10-01T00:00:00Z',
    'QUARTER',
  ],
  [
    'JP',
    'Tankan Large Manufacturing Index',
    '2026-12-13T23:50:00Z',
    '2026-10-01T00:00:00Z',
    'QUARTER',
  ],
  [
    'JP',
    'Tankan Large Manufacturing Index',
    '2026-09-30T23:50:00Z',
    '2026-07-01T00:00:00Z',
    'QUARTER',
  ],
  // 23:30 UTC on 30 November is 1 December in Tokyo: November's figure
  [
    'JP',
    'National CPI ex Fresh Food (YoY)',
    '2026-11-30T23:30:00Z',
    '2026-11-01T00:00:00Z',
    'MONTH',
  ],
  ['DE', 'IFO – Business Climate', '2026-11-24T09:00:00Z', '2026-11-01T00:00:00Z', 'MONTH'],
  ['EMU', 'HCOB Composite PMI', '2026-11-23T09:00:00Z', '2026-11-01T00:00:00Z', 'MONTH'],
];

describe('demo reference periods', () => {
  it.each(CASES)('%s %s released %s reports on %s (%s)', (country, name, at, period, type) => {
    expect(periodOf(ind(country, name), Date.parse(at))).toEqual({
      periodDateUtc: period,
      periodType: type,
    });
  });
});
