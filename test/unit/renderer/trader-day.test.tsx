// @vitest-environment jsdom
/** Issue #26's defects in the mounted app, each as a trader would notice it. */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
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
