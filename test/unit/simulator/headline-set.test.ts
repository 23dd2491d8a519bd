/**
 * Issue #45, item 2: the figures an FX desk trades each currency on, as
 * docs/demo-calendar.md tables them. Each one is in the demo, under its currency, rated for
 * the market impact it has (the headline numbers HIGH).
 */
import { describe, expect, it } from 'vitest';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';

type Headline = [country: string, name: string];

// prettier-ignore
const HEADLINES: Record<string, Headline[]> = {
  USD: [
    ['US', 'Nonfarm Payrolls'], ['US', 'Unemployment Rate'], ['US', 'Average Hourly Earnings (MoM)'],
    ['US', 'Consumer Price Index (MoM)'], ['US', 'Consumer Price Index (YoY)'],
    ['US', 'Core Consumer Price Index (MoM)'], ['US', 'Core Consumer Price Index (YoY)'],
    ['US', 'Core PCE Price Index (MoM)'], ['US', 'Retail Sales (MoM)'], ['US', 'Retail Sales ex Autos (MoM)'],
    ['US', 'ISM Manufacturing PMI'], ['US', 'ISM Services PMI'],
    ['US', 'S&P Global Flash Manufacturing PMI'], ['US', 'S&P Global Flash Services PMI'],
    ['US', 'Gross Domestic Product Annualized'], ['US', 'Initial Jobless Claims'],
    ['US', 'Fed Interest Rate Decision'], ['US', 'FOMC Press Conference'],
  ],
  EUR: [
    ['EMU', 'Harmonized Index of Consumer Prices (YoY)'], ['EMU', 'Core HICP (YoY)'],
    ['EMU', 'HCOB Flash Manufacturing PMI'], ['EMU', 'HCOB Flash Services PMI'],
    ['DE', 'HCOB Flash Manufacturing PMI'], ['DE', 'HCOB Flash Services PMI'],
    ['FR', 'HCOB Flash Manufacturing PMI'], ['FR', 'HCOB Flash Services PMI'],
    ['EMU', 'Gross Domestic Product s.a. (QoQ)'], ['DE', 'IFO – Business Climate'],
    ['DE', 'ZEW Survey – Economic Sentiment'], ['DE', 'Consumer Price Index (YoY)'],
    ['EMU', 'ECB Main Refinancing Operations Rate'], ['EMU', 'ECB Press Conference'],
  ],
  GBP: [
    ['UK', 'Consumer Price Index (YoY)'], ['UK', 'Core Consumer Price Index (YoY)'],
    ['UK', 'ILO Unemployment Rate (3M)'], ['UK', 'Claimant Count Change'],
    ['UK', 'Average Earnings Including Bonus (3Mo/Yr)'], ['UK', 'Retail Sales (MoM)'],
    ['UK', 'Gross Domestic Product (MoM)'],
    ['UK', 'S&P Global Flash Manufacturing PMI'], ['UK', 'S&P Global Flash Services PMI'],
    ['UK', 'BoE Interest Rate Decision'],
  ],
  JPY: [
    ['JP', 'National CPI ex Fresh Food (YoY)'], ['JP', 'Tokyo CPI ex Fresh Food (YoY)'],
    ['JP', 'Tankan Large Manufacturing Index'], ['JP', 'Unemployment Rate'],
    ['JP', 'S&P Global Flash Manufacturing PMI'], ['JP', 'S&P Global Flash Services PMI'],
    ['JP', 'BoJ Interest Rate Decision'],
  ],
  CAD: [
    ['CA', 'Net Change in Employment'], ['CA', 'Unemployment Rate'],
    ['CA', 'Consumer Price Index (YoY)'], ['CA', 'BoC Core Consumer Price Index (YoY)'],
    ['CA', 'Retail Sales (MoM)'], ['CA', 'Retail Sales ex Autos (MoM)'],
    ['CA', 'Gross Domestic Product (MoM)'], ['CA', 'Ivey PMI s.a.'], ['CA', 'BoC Interest Rate Decision'],
  ],
  AUD: [
    ['AU', 'Employment Change s.a.'], ['AU', 'Unemployment Rate s.a.'],
    ['AU', 'Monthly Consumer Price Index (YoY)'], ['AU', 'Monthly CPI Trimmed Mean (YoY)'],
    ['AU', 'Household Spending (MoM)'],
    ['AU', 'S&P Global Flash Manufacturing PMI'], ['AU', 'S&P Global Flash Services PMI'],
    ['AU', 'RBA Interest Rate Decision'],
  ],
  NZD: [
    ['NZ', 'Consumer Price Index (QoQ)'], ['NZ', 'Unemployment Rate'], ['NZ', 'Gross Domestic Product (QoQ)'],
    ['NZ', 'GDT Price Index'], ['NZ', 'RBNZ Interest Rate Decision'],
  ],
  CHF: [
    ['CH', 'Consumer Price Index (YoY)'], ['CH', 'Core Consumer Price Index (YoY)'],
    ['CH', 'KOF Leading Indicator'], ['CH', 'procure.ch Manufacturing PMI'],
    ['CH', 'Unemployment Rate s.a.'], ['CH', 'SNB Interest Rate Decision'],
  ],
  CNY: [
    ['CN', 'Consumer Price Index (YoY)'], ['CN', 'Producer Price Index (YoY)'],
    ['CN', 'Gross Domestic Product (YoY)'], ['CN', 'NBS Manufacturing PMI'],
    ['CN', 'RatingDog Manufacturing PMI'], ['CN', 'Trade Balance USD'],
    ['CN', 'Industrial Production (YoY)'], ['CN', 'Retail Sales (YoY)'],
    ['CN', 'PBoC Loan Prime Rate (1Y)'],
  ],
};

/** The figures the desk cannot miss: rated HIGH (three bulls). */
const TOP: Record<string, string[]> = {
  USD: [
    'Core Consumer Price Index (MoM)',
    'Core Consumer Price Index (YoY)',
    'Average Hourly Earnings (MoM)',
    'Retail Sales ex Autos (MoM)',
  ],
  EUR: ['Core HICP (YoY)'],
  GBP: ['Core Consumer Price Index (YoY)'],
  CAD: ['Unemployment Rate'],
  AUD: ['Unemployment Rate s.a.'],
  NZD: ['Consumer Price Index (QoQ)', 'Unemployment Rate', 'Gross Domestic Product (QoQ)'],
};

describe("each currency's headline set (docs/demo-calendar.md)", () => {
  for (const [currency, headlines] of Object.entries(HEADLINES))
    it(`${currency}: ${headlines.length} headline figures, each once under ${currency}`, () => {
      const missing = headlines.filter(
        ([country, name]) =>
          INDICATORS.filter(
            (i) => i.country === country && i.name === name && i.currency === currency,
          ).length !== 1,
      );
      expect(missing).toEqual([]);
      for (const name of TOP[currency] ?? []) {
        const ind = INDICATORS.find((i) => i.currency === currency && i.name === name);
        expect(ind?.volatility, `${currency} ${name}`).toBe('HIGH');
      }
    });
});
