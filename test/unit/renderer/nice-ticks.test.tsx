// @vitest-environment jsdom
/**
 * Issue #45, item 4: the history chart's axis lied — gridlines at 0.2 / 0.35 / 0.5 with the
 * middle one labelled "0.3%", so a 0.3% print sat below the "0.3%" line. Each label must
 * equal the value its gridline is drawn at, and the ticks must span the data.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryChart } from '../../../src/renderer/src/components/HistoryChart.js';
import { niceTicks } from '../../../src/renderer/src/lib/nice-ticks.js';
import { formatValue } from '../../../src/shared/format.js';
import { ed } from './harness.js';

afterEach(cleanup);

const cases: [number, number, string | null, 'ZERO' | 'K' | 'M' | 'B', number][] = [
  [0.2, 0.5, '%', 'ZERO', 1], // CPI m/m: the reported case
  [-0.4, 0.7, '%', 'ZERO', 1],
  [4.05, 4.35, '%', 'ZERO', 2], // a policy rate in hundredths
  [120, 310, null, 'K', 0], // payrolls
  [47.9, 52.3, null, 'ZERO', 1], // a PMI
  [-353.9, -120.2, '¥', 'B', 1], // a trade balance
  [0.001, 0.004, '%', 'ZERO', 3],
];

describe('the history chart axis', () => {
  for (const [min, max, unit, potency, own] of cases)
    it(`labels each gridline with its value (${min}…${max}${unit ?? ''})`, () => {
      const { values, decimals } = niceTicks(min, max);
      expect(values[0]).toBeLessThanOrEqual(min);
      expect(values.at(-1)).toBeGreaterThanOrEqual(max);
      expect(values.length).toBeGreaterThanOrEqual(2);
      expect(values.length).toBeLessThanOrEqual(6);
      const step = (values[1] as number) - (values[0] as number);
      for (let i = 1; i < values.length; i++)
        expect((values[i] as number) - (values[i - 1] as number)).toBeCloseTo(step, 9);
      for (const v of values) {
        const label = formatValue(v, unit, potency, Math.max(own, decimals));
        // the number the label shows is the gridline's value, exactly
        const shown = Number(label.replace(/[^0-9.-]/g, ''));
        expect([label, shown]).toEqual([label, v]);
      }
    });

  it('the reported CPI axis: 0.3% is a gridline of its own, labelled 0.3%', () => {
    const { values } = niceTicks(0.2, 0.5);
    expect(values).toContain(0.3);
    expect(values).not.toContain(0.35);
  });
});

describe('the rendered history chart', () => {
  it('puts a 0.3% print on the gridline labelled 0.3%', () => {
    const cpi = [0.2, 0.3, 0.5, 0.3].map((actual, i) =>
      ed(i, {
        dateUtc: new Date(Date.UTC(2026, 10 - i, 12, 13, 30)).toISOString(),
        actual,
        consensus: 0.3,
        previous: 0.3,
        unit: '%',
        potency: 'ZERO',
      }),
    );
    const { container } = render(<HistoryChart history={cpi} title="US CPI" zone="UTC" />);
    const grid = [...container.querySelectorAll('g')].flatMap((g) => {
      const line = g.querySelector(':scope > line.grid');
      const text = g.querySelector(':scope > text.axis');
      return line && text ? [[text.textContent, Number(line.getAttribute('y1'))] as const] : [];
    });
    expect(grid.map(([label]) => label)).toEqual(['0.2%', '0.3%', '0.4%', '0.5%']);
    const yOf = new Map(grid);
    // Each print is drawn on the gridline its value names (oldest first: 0.3, 0.5, 0.3, 0.2).
    const dots = [...container.querySelectorAll('circle')].map((c) => Number(c.getAttribute('cy')));
    expect(dots).toHaveLength(4);
    ['0.3%', '0.5%', '0.3%', '0.2%'].forEach((label, i) =>
      expect(dots[i]).toBeCloseTo(yOf.get(label) as number, 1),
    );
  });
});
