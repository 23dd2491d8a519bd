// @clock 2026-12-04T13:40:00Z — ten minutes after the demo's November jobs report (Friday 4 December, 08:30 ET)
/**
 * Issue #45, done when: on jobs-report day the grid shows Average Hourly Earnings printed
 * with payrolls and the unemployment rate at 08:30 New York time, and the detail gives the
 * release's context (joblessness the other way round: lower is good for the currency).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf, expectRowAt, printedThisMorning } from './headline-day.js';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('jobs-report day in the demo', () => {
  it('prints Average Hourly Earnings with payrolls at 08:30 ET, with context in the detail', async () => {
    const names = ['Nonfarm Payrolls', 'Unemployment Rate', 'Average Hourly Earnings (MoM)'];
    const printed = await printedThisMorning(e, names);
    expect(new Set(printed.map((ed) => ed.dateUtc))).toEqual(new Set(['2026-12-04T13:30:00Z']));
    for (const ed of printed) await expectRowAt(e, ed, '08:30');

    const earnings = await contextOf(e, printed[2]!);
    expect(earnings.Source).toBe('U.S. Bureau of Labor Statistics (BLS)');
    expect(earnings['Usual effect']).toBe('Actual above forecast = good for currency');
    expect(earnings['Why traders care']).toMatch(/wage growth feeds services inflation/i);
    const jobless = await contextOf(e, printed[1]!);
    expect(jobless['Usual effect']).toBe('Actual below forecast = good for currency');
  });
});
