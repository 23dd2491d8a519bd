// @clock 2026-12-11T13:40:00Z — ten minutes after the demo's December CPI (Friday 11 December, 08:30 ET)
/**
 * Issue #45, done when: on CPI day the grid shows Core CPI m/m and y/y printed with CPI at
 * 08:30 New York time, and the detail gives the release's context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf, expectRowAt, printedThisMorning } from './headline-day.js';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('CPI day in the demo', () => {
  it('prints Core CPI m/m and y/y with CPI at 08:30 ET, with context in the detail', async () => {
    const names = [
      'Consumer Price Index (MoM)',
      'Consumer Price Index (YoY)',
      'Core Consumer Price Index (MoM)',
      'Core Consumer Price Index (YoY)',
    ];
    const printed = await printedThisMorning(e, names);
    expect(new Set(printed.map((ed) => ed.dateUtc))).toEqual(new Set(['2026-12-11T13:30:00Z']));
    for (const ed of printed) await expectRowAt(e, ed, '08:30');

    const context = await contextOf(e, printed[2]!);
    expect(Object.keys(context)).toEqual([
      'Source',
      'Measures',
      'Frequency',
      'Usual effect',
      'Why traders care',
    ]);
    expect(context.Source).toBe('U.S. Bureau of Labor Statistics (BLS)');
    expect(context.Frequency).toBe('Monthly');
    expect(context['Usual effect']).toBe('Actual above forecast = good for currency');
    expect(context.Measures).toMatch(/^The change in US consumer prices from the month before/);
  });
});
