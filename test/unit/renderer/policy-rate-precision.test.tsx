// @vitest-environment jsdom
/**
 * Issue #36 item 1: a policy rate shows the hundredths its central bank publishes on FIRST
 * view — a fresh data folder, no history cached, so no event precision from the host
 * (`decimals` absent) — in the grid, the detail's surprises, the alert text, the squawk,
 * the ICS entry and the CSV. The service sends numbers: an ECB hold at 1.90 arrives as 1.9.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseBody } from '../../../src/main/alerts/message.js';
import { Surprises } from '../../../src/renderer/src/components/detail/Surprises.js';
import { toCsv } from '../../../src/renderer/src/lib/export.js';
import { publishedDecimals, releaseDecimals } from '../../../src/shared/format.js';
import { describeRelease } from '../../../src/shared/ics.js';
import { consensusText, printText } from '../../../src/shared/squawk-text.js';
import { ed, mount } from './harness.js';

afterEach(cleanup);

const pct = { unit: '%', potency: 'ZERO', isBetterThanExpected: null, revised: null };
const ecbHold = ed(1, {
  ...pct,
  countryCode: 'EMU',
  name: 'ECB Main Refinancing Operations Rate',
  actual: 1.9,
  consensus: 1.9,
  previous: 1.9,
});
const fedHold = ed(2, {
  ...pct,
  name: 'Fed Interest Rate Decision',
  actual: 4.5,
  consensus: 4.5,
  previous: 4.5,
});
const rbaCut = ed(3, {
  ...pct,
  countryCode: 'AU',
  name: 'RBA Interest Rate Decision',
  actual: 3.6,
  consensus: 3.6,
  previous: 3.85,
});
const unemployment = ed(4, {
  ...pct,
  name: 'Unemployment Rate',
  actual: 4.1,
  consensus: 4.2,
  previous: 4.2,
});

const rowOf = async (name: string) =>
  (await screen.findByText(name)).closest('[data-testid=event-row]') as HTMLElement;
const cell = (row: HTMLElement, col: string) =>
  row.querySelector(`[data-col=${col}]`)?.textContent ?? '';

describe('the precision a policy rate is published with, before any history says so', () => {
  it('is two decimals for a central bank’s rate in %, and nothing for other figures', () => {
    expect(releaseDecimals(ecbHold)).toBe(2);
    expect(releaseDecimals(fedHold)).toBe(2);
    expect(releaseDecimals(unemployment)).toBe(1);
    expect(
      publishedDecimals({ name: 'PBoC Loan Prime Rate (1Y)', unit: '%', potency: 'ZERO' }),
    ).toBe(2);
    // other figures in % print their tenth (test/unit/shared/published-precision.test.ts)
    expect(publishedDecimals({ name: 'Unemployment Rate', unit: '%', potency: 'ZERO' })).toBe(1);
    // not a rate in % (a rate decision's speech has no figure, a count is not a rate)
    expect(
      publishedDecimals({ name: 'Fed Interest Rate Decision', unit: null, potency: 'K' }),
    ).not.toBe(2);
    // a finer precision of its own (or the host's) still wins
    expect(releaseDecimals({ ...fedHold, actual: 4.125 })).toBe(3);
    expect(releaseDecimals({ ...fedHold, decimals: 3 })).toBe(3);
  });

  it('reads "1.90%" in the grid on first view (the host sent no event precision)', async () => {
    mount([ecbHold, fedHold, rbaCut, unemployment]);
    const ecb = await rowOf('ECB Main Refinancing Operations Rate');
    expect([cell(ecb, 'actual'), cell(ecb, 'consensus'), cell(ecb, 'previous')]).toEqual([
      '1.90%',
      '1.90%',
      '1.90%',
    ]);
    const fed = await rowOf('Fed Interest Rate Decision');
    expect(cell(fed, 'consensus')).toBe('4.50%');
    const rba = await rowOf('RBA Interest Rate Decision');
    expect([cell(rba, 'consensus'), cell(rba, 'previous')]).toEqual(['3.60%', '3.85%']);
    // a rate's surprise is in percentage points, at the rate's own precision (issue #45)
    expect(cell(rba, 'surprise')).toBe('0.00 pp');
    const jobs = await rowOf('Unemployment Rate');
    expect(cell(jobs, 'consensus')).toBe('4.2%');
  });

  it('in the detail’s surprises', () => {
    render(
      <Surprises
        history={[
          { ...fedHold, id: 'h1', actual: 4.5, consensus: 4 },
          { ...fedHold, id: 'h2', actual: 4.5, consensus: 4.5 },
        ]}
        zone="UTC"
        hourCycle="h23"
      />,
    );
    expect(screen.getByTestId('surprise-summary').textContent).toContain('+0.50 pp');
    expect(document.body.textContent).toContain('0.00 pp');
  });

  it('in the alert text, the squawk, the ICS entry and the CSV', () => {
    expect(releaseBody(ecbHold)).toBe('1.90% vs 1.90% consensus (prev 1.90%) — in line');
    expect(printText(fedHold)).toBe(
      'US Fed Interest Rate Decision, 4.50 percent, consensus 4.50, in line',
    );
    expect(consensusText(ecbHold, 10)).toBe(
      'EMU ECB Main Refinancing Operations Rate in 10 seconds, consensus 1.90 percent',
    );
    expect(describeRelease(rbaCut)).toContain('Consensus: 3.60%\nPrevious: 3.85%');
    const csv = toCsv([ecbHold, unemployment]).split('\r\n');
    expect(csv[1]).toContain(',1.90,1.90,1.90,,%');
    expect(csv[2]).toContain(',4.1,4.2,4.2,,%');
  });
});
