// @vitest-environment jsdom
/** Issue #45 (a trader's day four) in the renderer, each defect as a trader would notice it. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Surprises } from '../../../src/renderer/src/components/detail/Surprises.js';
import { SHORTCUTS } from '../../../src/renderer/src/lib/shortcuts.js';
import type { AppStatus } from '../../../src/shared/domain.js';
import { ed, mount, status } from './harness.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

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

describe('keyboard help on “?” (item 5)', () => {
  const press = (key: string, target: Element = document.body) =>
    fireEvent.keyDown(target, { key });
  const dialogs = () => screen.queryAllByRole('dialog', { name: 'Keyboard shortcuts' });

  it('lists the shortcuts the app has; Esc closes it before the detail under it', async () => {
    const m = mount([ed(1, { name: 'Nonfarm Payrolls' })], {
      getEventDetail: () => ({ event: null, upcoming: [], history: [], watched: false }),
    });
    await screen.findAllByTestId('event-row');
    act(() => m.stores.app.getState().openEvent('e1'));
    await waitFor(() => expect(m.stores.app.getState().eventId).toBe('e1'));
    // the detail (a lazy chunk) is in and has taken focus before the help opens over it
    await screen.findByRole('button', { name: 'Close details (Escape)' });
    expect(dialogs()).toHaveLength(0);
    press('?');
    expect(dialogs()).toHaveLength(1);
    const help = dialogs()[0] as HTMLElement;
    const calendar = within(help).getByRole('region', { name: 'Calendar' });
    expect(
      within(calendar).getByText('Watch or unwatch the release').previousSibling?.textContent,
    ).toBe('w');
    expect(within(calendar).getByText('Filter by name').previousSibling?.textContent).toBe('/');
    expect(within(help).getAllByRole('term')).toHaveLength(
      SHORTCUTS.reduce((n, g) => n + g.list.length, 0),
    );
    expect(document.activeElement).toBe(within(help).getByRole('button', { name: 'Close' }));
    // Esc closes the help only: the detail stays open until a second Esc
    press('Escape', document.activeElement as Element);
    expect(dialogs()).toHaveLength(0);
    expect(m.stores.app.getState().eventId).toBe('e1');
    press('Escape');
    await waitFor(() => expect(m.stores.app.getState().eventId).toBeNull());
  });

  it('is typed as a character in a text field, not taken as the shortcut', async () => {
    mount([ed(1)]);
    const filter = await screen.findByRole('searchbox', { name: /filter/i });
    press('?', filter);
    expect(dialogs()).toHaveLength(0);
    // "?" again outside it toggles the help on, then off
    press('?');
    expect(dialogs()).toHaveLength(1);
    press('?');
    expect(dialogs()).toHaveLength(0);
  });
});

describe('a z-score’s n counts the rows listed below it (item 5)', () => {
  it('lists every surprise a z-score stands on: 14 prints, the newest z on the 13 below', () => {
    // newest first, one a month, surprises alternating ±10 around 0 then a +68 print
    const history = Array.from({ length: 14 }, (_, i) =>
      ed(i, {
        dateUtc: new Date(Date.UTC(2026, 10 - i, 3, 13, 30)).toISOString(),
        potency: 'K',
        unit: null,
        consensus: 100,
        actual: 100 + (i === 0 ? 68 : i % 2 ? 10 : -10),
      }),
    );
    render(<Surprises history={history} zone="UTC" hourCycle="h23" />);
    const rows = within(screen.getByRole('table', { name: 'Surprise history' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(14);
    rows.forEach((row, i) => {
      const z = row.lastElementChild?.textContent ?? '';
      const below = rows.length - 1 - i;
      // a z-score from 8 earlier surprises on; its n is the number of rows below it
      if (below >= 8) expect(z).toMatch(new RegExp(`\\(n=${below}\\)$`));
      else expect(z).toBe('—');
    });
    expect(screen.getByTestId('surprise-summary').textContent).toContain(
      '(n=13) against its 13 earlier surprises',
    );
  });
});

describe('a warm start says when the service last answered, never “never” (item 5)', () => {
  const lastAnswer = () => screen.queryByTestId('last-answer')?.textContent ?? null;
  /** The App with the core's status held back until `answer` is called. */
  const mountWaiting = () => {
    let answer: (s: AppStatus) => void = () => undefined;
    const held = new Promise<AppStatus>((r) => (answer = r));
    mount([ed(1)], { getStatus: () => held });
    return (s: AppStatus) => act(() => answer(s));
  };

  it('shows the time this window last saw until the status arrives, then the core’s', async () => {
    localStorage.setItem('macrobell.lastAnswerAt', String(Date.now() - 180_000));
    const answer = mountWaiting();
    await screen.findByTestId('status-bar');
    expect(lastAnswer()).toBe('Last answer 3m ago');
    await answer({ ...status, lastSyncAt: Date.now() - 5_000 });
    await waitFor(() => expect(lastAnswer()).toMatch(/^Last answer [56]s ago$/));
    // remembered for the next load
    expect(Number(localStorage.getItem('macrobell.lastAnswerAt'))).toBeGreaterThan(
      Date.now() - 10_000,
    );
  });

  it('with nothing remembered, says nothing until the core does', async () => {
    const answer = mountWaiting();
    await screen.findByTestId('status-bar');
    expect(screen.getByTestId('status-bar').textContent).not.toContain('never');
    expect(lastAnswer()).toBeNull();
    // the core's own "never" (no answer yet in this data folder) is shown as it is
    await answer({ ...status, lastSyncAt: null });
    await waitFor(() => expect(lastAnswer()).toBe('Last answer never'));
  });
});
