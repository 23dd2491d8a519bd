// @vitest-environment jsdom
/** Issue #26's defects in the mounted app, each as a trader would notice it. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type AlertRecord } from '../../../src/shared/domain.js';
import { buildItems, openingIndex, withNowLine } from '../../../src/renderer/src/lib/items.js';
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
    // a yield's surprise is in percentage points (issue #45: '+0.001%' read as a relative change)
    expect(cell(bill, 'surprise')).toBe('+0.001 pp');
    const pmi = await rowOf('ISM PMI');
    expect(cell(pmi, 'consensus')).toBe('52.0');
    const rbnz = await rowOf('RBNZ Rate');
    expect([cell(rbnz, 'actual'), cell(rbnz, 'previous')]).toEqual(['3.00%', '3.25%']);
  });

  it('shows a hold whose own figures are round with its event’s precision (1.90%, not 1.9%)', async () => {
    const hold = { unit: '%', potency: 'ZERO', actual: 1.9, consensus: 1.9, previous: 1.9 };
    mount([
      ed(1, { ...hold, name: 'ECB Main Refinancing Rate', decimals: 2 }),
      // without the host's precision the row keeps its own
      ed(2, { ...hold, name: 'Other Rate' }),
    ]);
    const ecb = await rowOf('ECB Main Refinancing Rate');
    expect([cell(ecb, 'actual'), cell(ecb, 'consensus'), cell(ecb, 'previous')]).toEqual([
      '1.90%',
      '1.90%',
      '1.90%',
    ]);
    expect(cell(await rowOf('Other Rate'), 'consensus')).toBe('1.9%');
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

describe('the calendar opens on now and follows it (defect 5)', () => {
  const HOUR = 3_600_000;
  // A busy day: 30 releases from midnight UTC, now after the 20th.
  const midnight = Date.parse('2026-11-25T00:00:00Z');
  const day = Array.from({ length: 30 }, (_, i) =>
    ed(100 + i, { dateUtc: new Date(midnight + i * 0.5 * HOUR).toISOString() }),
  );
  const items = withNowLine(buildItems(day, 'UTC'), midnight + 10.2 * HOUR, 'UTC');
  const nowAt = items.findIndex((it) => it.kind === 'now');

  it('opens with the now line and the next releases in view on a short window', () => {
    for (const visible of [9, 14]) {
      const top = openingIndex(items, midnight + 10.2 * HOUR, 'UTC', visible);
      expect(nowAt).toBeGreaterThan(top);
      // the line and at least three upcoming releases below it are on screen
      expect(nowAt + 3).toBeLessThan(top + visible);
    }
  });

  it('still opens on today’s header when now fits under it', () => {
    expect(openingIndex(items, midnight + 10.2 * HOUR, 'UTC', 40)).toBe(0);
  });

  it('puts tomorrow’s all-day holiday below the now line, with its day', () => {
    const rows = [
      ed(1, { name: 'EIA Crude', dateUtc: '2026-11-25T15:30:00Z' }),
      ed(2, { name: 'Thanksgiving', dateUtc: '2026-11-26T00:00:00Z', isAllDay: true }),
      ed(3, { name: 'RBA speech', dateUtc: '2026-11-26T03:00:00Z' }),
    ];
    const list = withNowLine(buildItems(rows, 'UTC'), Date.parse('2026-11-25T20:35:00Z'), 'UTC');
    expect(list.map((it) => (it.kind === 'row' ? it.ed.name : it.kind))).toEqual([
      'day',
      'EIA Crude',
      'now',
      'day',
      'Thanksgiving',
      'RBA speech',
    ]);
  });

  it('moves the now line within seconds, not every 30 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const t0 = Date.now();
      mount([
        ed(1, { name: 'Printed', dateUtc: new Date(t0 - 60_000).toISOString() }),
        ed(2, { name: 'Soon', dateUtc: new Date(t0 + 3_000).toISOString() }),
        ed(3, { name: 'Later', dateUtc: new Date(t0 + 600_000).toISOString() }),
      ]);
      const order = () =>
        [...document.querySelectorAll('[data-testid=now-line], [data-testid=event-row]')]
          .sort(
            (a, b) =>
              parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top),
          )
          .map((el) =>
            el.getAttribute('data-testid') === 'now-line'
              ? 'NOW'
              : el.querySelector('.name')?.textContent,
          );
      await waitFor(() => expect(order()).toEqual(['Printed', 'NOW', 'Soon', 'Later']));
      await act(() => vi.advanceTimersByTimeAsync(8_000));
      expect(order()).toEqual(['Printed', 'Soon', 'NOW', 'Later']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the header countdown (defect 5)', () => {
  it('counts down to the next release the alert rules cover, whatever the text filter', async () => {
    const t = Date.now();
    const rules = { ...DEFAULT_SETTINGS.alertRules, minVolatility: 'LOW' as const };
    const m = mount(
      [
        ed(1, {
          name: 'EIA Crude Oil Stocks Change',
          volatility: 'LOW',
          dateUtc: new Date(t + 23 * 60_000).toISOString(),
        }),
        ed(2, {
          name: 'Nonfarm Payrolls',
          volatility: 'HIGH',
          dateUtc: new Date(t + 8.9 * 86_400_000).toISOString(),
        }),
      ],
      {},
      { settings: { alertRules: rules } },
    );
    await act(() =>
      m.stores.calendar
        .getState()
        .setFilters({ volatilities: [], countries: [], categories: [], text: 'Nonfarm' }),
    );
    const next = await screen.findByTestId('next-release');
    await waitFor(() => expect(next.textContent).toContain('EIA Crude Oil Stocks Change'));
    // m:ss in the last hour (issue #36 item 9)
    expect(next.textContent).toMatch(/Next alert:.*in 2[23]:\d\d$/);
  });
});

describe('"Pause for 1 hour" (defect 11)', () => {
  it('shows in the status bar until it ends, and says so in full', async () => {
    let rules = { ...DEFAULT_SETTINGS.alertRules };
    mount([ed(1)], {
      getAlertRules: () => rules,
      pauseAlerts: (i) => (rules = { ...rules, pausedUntil: (i as { until: number }).until }),
    });
    expect(screen.getByTestId('status-bar').textContent).not.toContain('paused');
    fireEvent.click(screen.getByRole('button', { name: /^Alerts/ }));
    // generous waits: the machine may be busy (the screen loads its rules, then the pause)
    const slow = { timeout: 5_000 };
    fireEvent.click(await screen.findByRole('button', { name: 'Pause for 1 hour' }, slow));
    const note = await screen.findByTestId('alerts-paused', {}, slow);
    expect(note.textContent).toMatch(/Alerts paused until \d{2}:\d{2}/);
    expect(screen.getByText(/^Alerts paused for 1 hour/).className).toContain('rules-saved');
  });
});

describe('a second window follows the first (defect 10)', () => {
  it('takes zone, clock and rules from a settings push, and read marks from alertsRead', async () => {
    const alert = { id: 7, read: false } as AlertRecord;
    const m = mount([ed(1)], { listAlerts: () => [alert] });
    await m.stores.alerts.getState().load();
    act(() =>
      m.push('settings', {
        ...structuredClone(DEFAULT_SETTINGS),
        timeZone: 'UTC',
        hourCycle: 'h12',
      }),
    );
    expect((await screen.findByTestId('zone-label')).textContent).toMatch(/UTC/);
    expect(m.stores.app.getState().settings?.hourCycle).toBe('h12');
    act(() => m.push('alertsRead', { ids: null }));
    expect(m.stores.alerts.getState().items.every((a) => a.read)).toBe(true);
  });
});
