// @vitest-environment jsdom
/** Issue #36 (a trader's day three) in the renderer, each defect as a trader would notice it. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Surprises } from '../../../src/renderer/src/components/detail/Surprises.js';
import { ed } from './harness.js';

afterEach(cleanup);

describe('the z-score stands on enough history and says how much (item 2)', () => {
  // newest first, one a month: surprises of +68K then the given older ones
  const nfp = (surprises: number[]) =>
    surprises.map((d, i) =>
      ed(i, {
        dateUtc: new Date(Date.UTC(2026, 3 - i, 3, 12, 30)).toISOString(),
        potency: 'K',
        unit: null,
        consensus: 100,
        actual: 100 + d,
      }),
    );
  const summary = () => screen.getByTestId('surprise-summary').textContent ?? '';
  const zCells = () =>
    within(screen.getByRole('table', { name: 'Surprise history' }))
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.lastElementChild?.textContent);

  it('shows no z-score on 4 earlier surprises, and says why', () => {
    render(<Surprises history={nfp([68, 5, -5, 10, -10])} zone="UTC" hourCycle="h23" />);
    expect(summary()).toContain('no z-score: 4 earlier surprises, 8 needed');
    expect(summary()).not.toMatch(/z [+-]\d/);
    expect(zCells()).toEqual(['—', '—', '—', '—', '—']);
  });

  it('shows it with 8 earlier surprises, with n beside it in the summary and the table', () => {
    render(
      <Surprises
        history={nfp([68, 10, -10, 10, -10, 10, -10, 10, -10])}
        zone="UTC"
        hourCycle="h23"
      />,
    );
    // (68 − mean 0) / sd 10.69 of the eight before it
    expect(summary()).toContain('z +6.4 (n=8) against its 8 earlier surprises');
    expect(zCells()[0]).toBe('+6.4 (n=8)');
    expect(zCells().slice(1)).toEqual(Array(8).fill('—'));
  });
});
