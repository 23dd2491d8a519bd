// @vitest-environment jsdom
/** Issue #45 (a trader's day four) in the renderer, each defect as a trader would notice it. */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ed, mount } from './harness.js';

afterEach(cleanup);

describe('the FOMC press conference counts down like a print (item 5)', () => {
  const inMin = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
  const figureFree = { volatility: 'HIGH', isSpeech: true, consensus: null, previous: null };
  const pressConference = { ...figureFree, name: 'FOMC Press Conference', dateUtc: inMin(30) };
  const cpi = { name: 'Consumer Price Index (YoY)', volatility: 'HIGH', dateUtc: inMin(120) };

  it('“Next alert” and the window title name the press conference, flagged as figure-free', async () => {
    mount([ed(1, pressConference), ed(2, cpi)]);
    const next = await screen.findByTestId('next-release');
    await waitFor(() => expect(next.textContent).toMatch(/^Next alert: US FOMC Press Conference/));
    expect(next.getAttribute('data-countdown')).toBe('high');
    expect(next.querySelectorAll('[data-testid=figure-free]')).toHaveLength(1);
    expect(next.textContent).toMatch(/Conference no figure in (29|30):\d\d$/);
    // counted down once: no second "Next HIGH" pill for it or for the CPI after it
    expect(screen.queryByTestId('next-high')).toBeNull();
    await waitFor(() => expect(document.title).toMatch(/^US FOMC Press Conference in (29|30)m/));
  });

  it('an ad hoc speech still gives way to the next print, with no flag', async () => {
    mount([
      ed(1, { ...figureFree, name: "BoE's Governor Bailey speech", dateUtc: inMin(10) }),
      ed(2, cpi),
    ]);
    const next = await screen.findByTestId('next-release');
    await waitFor(() => expect(next.textContent).toContain('Consumer Price Index (YoY)'));
    expect(next.textContent).not.toContain('Bailey');
    expect(next.querySelector('[data-testid=figure-free]')).toBeNull();
  });
});
