/**
 * Issue #36 item 1: every figure shows the precision its source publishes on FIRST view —
 * no history cached, so no event precision from the host. The service sends numbers: a
 * jobless rate of 4.0 arrives as 4, NFP 143 (thousands) as 143, a hold at 1.90 as 1.9.
 * Realistic series, as they print, through the one formatter every surface uses.
 */
import { describe, expect, it } from 'vitest';
import { releaseBody } from '../../../src/main/alerts/message.js';
import { toCsv } from '../../../src/renderer/src/lib/export.js';
import type { EventDate } from '../../../src/shared/domain.js';
import { formatValue, releaseDecimals } from '../../../src/shared/format.js';
import { describeRelease } from '../../../src/shared/ics.js';
import { publishedDecimals } from '../../../src/shared/published-precision.js';
import { printText } from '../../../src/shared/squawk-text.js';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';
import { eventDateFixture } from '../../fixtures/domain.js';

type Series = [
  name: string,
  unit: string | null,
  potency: string,
  figures: number[],
  shown: string[],
];

/** Figures as the service sends them (trailing zeros gone), and as the source prints them. */
const SERIES: Series[] = [
  ['Consumer Price Index (MoM)', '%', 'ZERO', [0.3, 0.2, 0], ['0.3%', '0.2%', '0.0%']],
  ['Unemployment Rate', '%', 'ZERO', [4.1, 4, 4.2], ['4.1%', '4.0%', '4.2%']],
  ['Gross Domestic Product Annualized', '%', 'ZERO', [2.8, 3, 1.6], ['2.8%', '3.0%', '1.6%']],
  ['Nonfarm Payrolls', null, 'K', [143, 170, 256], ['143K', '170K', '256K']],
  ['Initial Jobless Claims', null, 'K', [224, 219, 230], ['224K', '219K', '230K']],
  ['Claimant Count Change', null, 'K', [21.8, 10, -3.2], ['21.8K', '10.0K', '-3.2K']],
  ['ISM Manufacturing PMI', null, 'ZERO', [52, 48.4, 49], ['52.0', '48.4', '49.0']],
  ['Housing Starts', null, 'M', [1.311, 1.3, 1.29], ['1.311M', '1.300M', '1.290M']],
  [
    'Goods and Services Trade Balance',
    '$',
    'B',
    [-78, -73.8, -70.1],
    ['-$78.0B', '-$73.8B', '-$70.1B'],
  ],
  ['Fed Interest Rate Decision', '%', 'ZERO', [4.5, 4.25, 4.5], ['4.50%', '4.25%', '4.50%']],
  ['4-Week Bill Auction', '%', 'ZERO', [4.2, 4.215, 4.19], ['4.200%', '4.215%', '4.190%']],
  ['10-y Bund Auction', '%', 'ZERO', [2.6, 2.61, 2.5], ['2.60%', '2.61%', '2.50%']],
  ['Tankan Large Manufacturing Index', null, 'ZERO', [14, 13, 12], ['14', '13', '12']],
];

const release = (s: Series, figures: number[], over: Partial<EventDate> = {}) =>
  eventDateFixture({
    name: s[0],
    unit: s[1],
    potency: s[2],
    actual: figures[0] ?? null,
    consensus: figures[1] ?? null,
    previous: figures[2] ?? null,
    revised: null,
    isBetterThanExpected: null,
    ...over,
  });

describe('the precision a figure is published with, before any history says so', () => {
  it.each(SERIES)('%s reads as its source prints it', (...s) => {
    const [, unit, potency, figures, shown] = s;
    const ed = release(s, figures);
    // no `decimals` from the host: a fresh data folder
    expect(ed.decimals).toBeUndefined();
    const d = releaseDecimals(ed);
    expect(figures.map((v) => formatValue(v, unit, potency, d))).toEqual(shown);
  });

  it('keeps finer digits of the figures themselves (a CPI of 0.25 is not cut to 0.3)', () => {
    const cpi = SERIES[0] as Series;
    expect(releaseDecimals(release(cpi, [0.25, 0.3, 0.2]))).toBe(2);
  });

  it('shows the same on every surface: alert text, squawk, ICS, CSV', () => {
    const jobs = release(SERIES[1] as Series, [4, 4.1, 4.2], { countryCode: 'US' });
    expect(releaseBody(jobs)).toMatch(/^4\.0% vs 4\.1% consensus \(prev 4\.2%\)/);
    expect(printText(jobs)).toBe('US Unemployment Rate, 4.0 percent, consensus 4.1, miss');
    const nfp = release(SERIES[3] as Series, [143, 170, 256]);
    expect(describeRelease(nfp)).toContain('Actual: 143K\nConsensus: 170K\nPrevious: 256K');
    const gdp = release(SERIES[2] as Series, [3, 2.8, 1.6]);
    const csv = toCsv([gdp]).split('\r\n')[1] ?? '';
    expect(csv).toContain(',3.0,2.8,1.6,');
  });

  it('agrees with every indicator of the demo: the app shows the demo’s figures as generated', () => {
    const disagree = INDICATORS.filter((i) => !i.speech && (i.level !== 0 || i.spread !== 0))
      .map((i) => ({ name: i.name, generated: i.decimals, published: publishedDecimals(i) }))
      // a kind the table leaves to the figures' own digits (a trade balance in millions)
      .filter((x) => x.published !== undefined && x.published !== x.generated);
    expect(disagree).toEqual([]);
  });

  it('leaves a figure of no known kind to its own digits', () => {
    expect(publishedDecimals({ name: 'Trade Balance (CHF)', unit: null, potency: 'M' })).toBe(
      undefined,
    );
  });
});
