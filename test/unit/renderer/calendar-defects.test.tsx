// @vitest-environment jsdom
/** Issue #16's calendar defects, each as a trader would notice it, in the mounted app. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_SETTINGS, type AlertRecord, type Settings } from '../../../src/shared/domain.js';
import { timeToken } from '../../../src/shared/format.js';
import { ed, mount, now, testBridge } from './harness.js';
import { createStores } from '../../../src/renderer/src/state/index.js';

afterEach(cleanup);

const inZone = (zone: string, hourCycle: 'h12' | 'h23'): Settings => ({
  ...structuredClone(DEFAULT_SETTINGS),
  timeZone: zone,
  hourCycle,
});
const rowOf = async (name: string) =>
  (await screen.findByText(name)).closest('[data-testid=event-row]') as HTMLElement;
const cell = (row: HTMLElement, col: string) =>
  row.querySelector(`[data-col=${col}]`)?.textContent ?? '';

describe('12-hour clock (defect 1)', () => {
  it('keeps AM and PM apart in the Time column', async () => {
    mount(
      [
        ed(1, { dateUtc: '2026-11-24T13:30:00Z', name: 'Morning print' }),
        ed(2, { dateUtc: '2026-11-25T01:30:00Z', name: 'Evening print' }),
      ],
      { getSettings: () => inZone('America/New_York', 'h12') },
    );
    expect(cell(await rowOf('Morning print'), 'time')).toBe('8:30 AM');
    expect(cell(await rowOf('Evening print'), 'time')).toBe('8:30 PM');
  });
});

describe('live rows and filters (defect 2)', () => {
  it('a pushed row that the active filters exclude stays out; one that matches comes in', async () => {
    const t = testBridge([ed(1, { name: 'Nonfarm Payrolls' })]);
    const stores = createStores(t.bridge, () => now);
    await stores.calendar
      .getState()
      .setFilters({ volatilities: ['HIGH'], countries: [], categories: [], text: 'Nonfarm' });
    const added = (i: number, over: Parameters<typeof ed>[1]) =>
      t.push('changes', [{ kind: 'eventDateAdded', eventDate: ed(i, over), source: 'relay' }]);
    added(2, { name: 'CFTC Gold NC Net Positions', volatility: 'LOW' });
    added(3, { name: 'Nonfarm Payrolls', volatility: 'LOW' });
    added(4, { name: 'ADP Employment', volatility: 'HIGH' });
    added(5, { name: 'Nonfarm Payrolls', volatility: 'HIGH' });
    expect(stores.calendar.getState().rows.map((r) => r.id)).toEqual(['ed1', 'ed5']);
  });

  it('with a category filter (rows carry none) asks the store again instead of guessing', async () => {
    const t = testBridge([ed(1)]);
    const stores = createStores(t.bridge, () => now);
    await stores.calendar
      .getState()
      .setFilters({ volatilities: [], countries: [], categories: ['c1'], text: '' });
    const loads = () => t.calls.filter(([m]) => m === 'listEventDates').length;
    const before = loads();
    t.push('changes', [{ kind: 'eventDateAdded', eventDate: ed(2), source: 'relay' }]);
    await waitFor(() => expect(loads()).toBe(before + 1));
  });
});

describe('all-day holidays (defect 3)', () => {
  it('stay on their own date west of UTC (Thanksgiving under Thursday in New York)', async () => {
    // That week seen from its Wednesday: the calendar opens on today, and on a later day the
    // Wednesday rows would sit above the first screenful (not in the DOM).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-25T12:00:00Z') });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    mount(
      [
        ed(1, { dateUtc: '2026-11-25T20:00:00Z', name: 'Wednesday print' }),
        ed(2, { dateUtc: '2026-11-26T00:00:00Z', name: 'Thanksgiving Day', isAllDay: true }),
        ed(3, { dateUtc: '2026-11-26T15:00:00Z', name: 'Thursday print' }),
      ],
      { getSettings: () => inZone('America/New_York', 'h23') },
    );
    await screen.findByText('Thanksgiving Day');
    const order = [
      ...document.querySelectorAll('.day-row [role=rowheader], [data-testid=event-row] .name'),
    ].map((e) => e.textContent);
    expect(order).toEqual([
      'Wednesday 25 November',
      'Wednesday print',
      'Thursday 26 November',
      'Thanksgiving Day',
      'Thursday print',
    ]);
    expect(cell(await rowOf('Thanksgiving Day'), 'time')).toBe('All day');
  });
});

describe('direction against consensus (defect 8)', () => {
  it('▼ for a print below consensus even when lower is better; colour says better', async () => {
    mount([
      ed(1, {
        name: 'Unemployment Rate',
        unit: '%',
        potency: 'ZERO',
        actual: 4.1,
        consensus: 4.2,
        isBetterThanExpected: true,
      }),
      ed(2, {
        name: 'CPI',
        unit: '%',
        potency: 'ZERO',
        actual: 2.6,
        consensus: 2.7,
        isBetterThanExpected: null,
      }),
    ]);
    const u = (await rowOf('Unemployment Rate')).querySelector('[data-col=actual]') as HTMLElement;
    expect(u.textContent).toBe('4.1% ▼');
    expect(u.className).toContain('beat');
    expect(u.querySelector('.cue')?.getAttribute('aria-label')).toBe(
      'below consensus, better than expected',
    );
    // 2.6% vs 2.7% is below consensus: ▼ (it used to show ▲)
    expect(cell(await rowOf('CPI'), 'actual')).toBe('2.6% ▼');
  });
});

describe('the surprise column', () => {
  it('gives the deviation score only when it rounds to something', async () => {
    mount([
      ed(1, { name: 'In line', unit: '%', actual: 2.7, consensus: 2.7, ratioDeviation: 0.02 }),
      ed(2, {
        name: 'Beat',
        unit: null,
        potency: 'K',
        actual: 275,
        consensus: 200,
        ratioDeviation: 1.43,
      }),
      ed(3, { name: 'Miss', unit: '%', actual: 2.5, consensus: 2.7, ratioDeviation: -0.46 }),
    ]);
    expect(cell(await rowOf('In line'), 'surprise')).not.toContain('dev');
    expect(cell(await rowOf('Beat'), 'surprise')).toBe('+75K dev +1.4');
    expect(cell(await rowOf('Miss'), 'surprise')).toMatch(/dev -0\.5$/);
  });
});

describe('the speech tag', () => {
  it('marks a speech whose name does not say so, and only that one', async () => {
    mount([
      ed(1, { name: "BoJ's Governor Ueda speech", isSpeech: true }),
      ed(2, { name: 'ECB President Lagarde at the Jackson Hole symposium', isSpeech: true }),
    ]);
    expect((await rowOf("BoJ's Governor Ueda speech")).querySelector('.tag')).toBeNull();
    const lagarde = await rowOf('ECB President Lagarde at the Jackson Hole symposium');
    expect(lagarde.querySelector('.tag')?.textContent).toBe('speech');
  });
});

describe('next release (defect 11)', () => {
  it('counts days past 24 hours and says which impacts it counts', async () => {
    mount([
      ed(1, {
        name: 'Far away',
        dateUtc: new Date(now + (7 * 24 + 19) * 3_600_000 + 60_000).toISOString(),
      }),
    ]);
    const next = await screen.findByTestId('next-release');
    await waitFor(() => expect(next.textContent).toMatch(/in 7d 19h$/));
    expect(next.textContent).toContain('Next alert:');
  });
});

describe('time zone and alert texts (defect 12)', () => {
  it('shows the zone the calendar is in', async () => {
    mount([ed(1)], { getSettings: () => inZone('America/New_York', 'h12') });
    expect((await screen.findByTestId('zone-label')).textContent).toMatch(
      /^Times: New York · E[SD]T$/,
    );
  });

  it('renders times inside alert texts in the zone and clock chosen now', async () => {
    const alert: AlertRecord = {
      id: 1,
      kind: 'released',
      title: `US CPI at ${timeToken('2026-11-24T13:30:00Z')}`,
      body: `Moved to ${timeToken('2026-11-25T13:30:00Z', 'dt')}`,
      createdAt: now,
      read: false,
      target: { type: 'eventDate', eventId: 'e1', eventDateId: 'ed1' },
    };
    const t = mount([ed(1)], {
      getSettings: () => inZone('America/New_York', 'h12'),
      listAlerts: () => [alert],
    });
    await screen.findByText('Indicator 1');
    act(() => t.stores.app.getState().go('alerts'));
    expect((await screen.findByText(/US CPI at/)).textContent).toBe('Unread: US CPI at 8:30 AM');
    expect(screen.getByText(/Moved to/).textContent).toBe('Moved to 25 Nov 2026, 8:30 AM');
  });
});

describe('watching from the grid (18)', () => {
  it('the bell watches an event, the row is marked, and the detail agrees', async () => {
    const t = mount([ed(1), ed(2)], {
      getEventDetail: () => ({ event: null, upcoming: [], history: [], watched: false }),
      setWatched: (input) => {
        const { eventId, watched } = input as { eventId: string; watched: boolean };
        return { ...DEFAULT_SETTINGS.alertRules, watchedEventIds: watched ? [eventId] : [] };
      },
    });
    const row = await rowOf('Indicator 2');
    const bell = within(row).getByRole('button', { name: 'Watch US Indicator 2' });
    expect(bell.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(bell);
    await waitFor(() => expect(row.getAttribute('data-watched')).toBe('true'));
    expect(t.calls).toContainEqual(['setWatched', { eventId: 'e2', watched: true }]);
    // the click did not open the detail; opening it shows the same state
    expect(screen.queryByTestId('event-detail')).toBeNull();
    fireEvent.click(row);
    const box = await screen.findByRole('checkbox', { name: /Alert me for this event/ });
    expect((box as HTMLInputElement).checked).toBe(true);
  });
});
