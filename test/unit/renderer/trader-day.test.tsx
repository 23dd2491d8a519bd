// @vitest-environment jsdom
/** Issue #26's defects in the mounted app, each as a trader would notice it. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryChart } from '../../../src/renderer/src/components/HistoryChart.js';
import { ed, mount } from './harness.js';

afterEach(cleanup);

const rowOf = async (name: string) =>
  (await screen.findByText(name)).closest('[data-testid=event-row]') as HTMLElement;
const cell = (row: HTMLElement, col: string) =>
  row.querySelector(`[data-col=${col}]`)?.textContent ?? '';

describe('values with the release’s own precision (defect 2)', () => {
  it('shows bill yields to three decimals, a PMI of 52 as 52.0 and a rate of 3 as 3.00%', async () => {
    const pct = { unit: '%', potency: 'ZERO', isBetterThanExpected: null };
    mount([
      ed(1, {
        ...pct,
        name: '3-Month Bill Auction',
        actual: 4.201,
        consensus: 4.2,
        previous: 4.191,
      }),
      ed(2, {
        unit: null,
        potency: 'ZERO',
        name: 'ISM PMI',
        actual: 55.3,
        consensus: 52,
        previous: 51.8,
      }),
      ed(3, { ...pct, name: 'RBNZ Rate', actual: 3, consensus: 3, previous: 3.25, revised: null }),
    ]);
    const bill = await rowOf('3-Month Bill Auction');
    expect([cell(bill, 'actual'), cell(bill, 'consensus'), cell(bill, 'previous')]).toEqual([
      '4.201% ▲',
      '4.200%',
      '4.191%',
    ]);
    expect(cell(bill, 'surprise')).toBe('+0.001%');
    const pmi = await rowOf('ISM PMI');
    expect(cell(pmi, 'consensus')).toBe('52.0');
    const rbnz = await rowOf('RBNZ Rate');
    expect([cell(rbnz, 'actual'), cell(rbnz, 'previous')]).toEqual(['3.00%', '3.25%']);
  });
});

describe('UTC and GMT in the zone list (defect 6)', () => {
  it('offers them right after the system zone, and choosing UTC is saved', async () => {
    const t = mount([ed(1)]);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const select = (await screen.findByLabelText('Time zone')) as HTMLSelectElement;
    const values = [...select.options].map((o) => o.value);
    expect(values.slice(0, 3)).toEqual(['system', 'UTC', 'GMT']);
    expect(values.filter((v) => v === 'UTC')).toHaveLength(1);
    fireEvent.change(select, { target: { value: 'UTC' } });
    expect(
      t.calls.some(([m, i]) => m === 'updateSettings' && JSON.stringify(i).includes('"UTC"')),
    ).toBe(true);
  });
});

describe('the history chart (defect 4)', () => {
  const history = [
    ed(1, { dateUtc: '2026-11-06T20:00:00Z', actual: 233, consensus: 233, previous: 241 }),
    ed(2, { dateUtc: '2026-10-02T20:00:00Z', actual: 185, consensus: 140, previous: 150 }),
    ed(3, {
      dateUtc: '2026-09-04T20:00:00Z',
      actual: 120,
      consensus: 150,
      previous: 150,
      isBetterThanExpected: false,
    }),
  ].map((h) => ({
    ...h,
    potency: 'K',
    unit: null,
    isBetterThanExpected: h.isBetterThanExpected ?? null,
  }));

  it('draws an in-line print as neutral, a beat and a miss in their colours', () => {
    const { container } = render(<HistoryChart history={history} title="US NFP" zone="UTC" />);
    const dots = [...container.querySelectorAll('circle')].map((c) => c.getAttribute('class'));
    expect(dots).toEqual(['pt-miss', 'pt-beat', 'pt-inline']);
  });

  it('dates points in the chosen zone and keeps the hover text inside the chart', () => {
    const { container } = render(
      <HistoryChart history={history} title="US NFP" zone="Pacific/Auckland" />,
    );
    const hits = container.querySelectorAll('rect.hit');
    fireEvent.mouseEnter(hits[hits.length - 1] as Element);
    const tip = screen.getByTestId('chart-tooltip').querySelector('text') as SVGTextElement;
    // 20:00 UTC on 6 Nov is 7 Nov in Auckland.
    expect(tip.textContent).toBe('7 Nov 2026: 233K vs 233K');
    // On the right half the text ends at the cursor instead of running past the edge.
    expect(tip.getAttribute('text-anchor')).toBe('end');
    fireEvent.mouseEnter(hits[0] as Element);
    const first = screen.getByTestId('chart-tooltip').querySelector('text') as SVGTextElement;
    expect(first.getAttribute('text-anchor')).toBe('start');
  });
});

describe('a revised previous (defect 4)', () => {
  it('shows the revised figure and the one it was revised from in full', async () => {
    mount([ed(1, { name: 'Payrolls', potency: 'K', unit: null, previous: 229, revised: 241 })]);
    const prev = (await rowOf('Payrolls')).querySelector('[data-col=previous]') as HTMLElement;
    expect(prev.textContent).toBe('241K rev. from 229K');
    expect(prev.className).toContain('has-revised');
  });
});
