// @vitest-environment jsdom
/** Issue #36 (a trader's day three) in the renderer, each defect as a trader would notice it. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlertRecord, Post, Settings } from '../../../src/shared/domain.js';
import { Surprises } from '../../../src/renderer/src/components/detail/Surprises.js';
import { ed, mount, now, status } from './harness.js';
import { postFixture } from '../../fixtures/domain.js';

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

describe('CFTC positions and sort-by-surprise (item 4)', () => {
  const rowOf = async (name: string) =>
    (await screen.findByText(name)).closest('[data-testid=event-row]') as HTMLElement;
  const names = () =>
    [...document.querySelectorAll<HTMLElement>('[data-testid=event-row]')]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
      .map((r) => r.querySelector('.name-text')?.textContent);

  it('reads a positions print as a count with no consensus: no arrow, no “better than expected”', async () => {
    mount([
      ed(1, {
        name: 'CFTC EUR NC Net Positions',
        unit: null,
        potency: 'K',
        actual: 67.4,
        consensus: null,
        previous: 60.1,
        // a provider may still send a verdict; with nothing expected it means nothing
        isBetterThanExpected: true,
        ratioDeviation: null,
      }),
    ]);
    const row = await rowOf('CFTC EUR NC Net Positions');
    const actual = row.querySelector('[data-col=actual]') as HTMLElement;
    expect(actual.textContent).toBe('67.4K');
    expect(actual.className).not.toMatch(/beat|miss/);
    expect(row.innerHTML).not.toContain('than expected');
    expect(row.querySelector('[data-col=surprise]')?.textContent).toBe('');
  });

  it('puts the real surprises first, a no-impact bill auction after them, unscored last', async () => {
    const at = new Date(now - 2 * 3_600_000).toISOString();
    const printed = (i: number, name: string, over: object) =>
      ed(i, { dateUtc: at, name, actual: 1, consensus: 1, ...over });
    mount([
      printed(1, '3-Month Bill Auction', { volatility: 'NONE', ratioDeviation: 6.5 }),
      printed(2, 'CFTC Gold NC Net Positions', { consensus: null, ratioDeviation: null }),
      printed(3, 'Retail Sales', { volatility: 'MEDIUM', ratioDeviation: -0.8 }),
      printed(4, 'Nonfarm Payrolls', { volatility: 'HIGH', ratioDeviation: 1.9 }),
      printed(5, '6-Month Bill Auction', { volatility: 'NONE', ratioDeviation: -2 }),
    ]);
    await rowOf('Retail Sales');
    fireEvent.click(screen.getByRole('button', { name: 'Sort each day by surprise' }));
    await waitFor(() =>
      expect(names()).toEqual([
        'Nonfarm Payrolls',
        'Retail Sales',
        '3-Month Bill Auction',
        '6-Month Bill Auction',
        'CFTC Gold NC Net Positions',
      ]),
    );
  });
});

describe('a late print says when it printed and when it was seen (item 11)', () => {
  const at = (hhmm: string) => Date.parse(`2026-12-09T${hhmm}:00Z`);
  const alert = (over: Partial<AlertRecord>): AlertRecord => ({
    id: 1,
    kind: 'released',
    title: 'Late print — US Fed Interest Rate Decision',
    body: '3.75% vs 3.75% consensus — in line',
    createdAt: at('19:20'),
    read: true,
    target: { type: 'eventDate', eventDateId: 'ed1', eventId: 'e1' },
    late: true,
    receipt: {
      path: 'poll',
      scheduledAt: at('19:00'),
      lastUpdatedAt: at('19:00'),
      printAt: at('19:00'),
      relayReceivedAt: null,
      appliedAt: at('19:20'),
      shownAt: null,
    },
    ...over,
  });
  const metas = async () => {
    fireEvent.click(screen.getByRole('button', { name: /^Alerts/ }));
    const list = await screen.findByRole('list', { name: 'Alert history' });
    await waitFor(() => expect(list.querySelectorAll('.meta')).not.toHaveLength(0));
    return [...list.querySelectorAll('.meta')].map((m) => m.textContent);
  };

  it('shows the release time and the time seen, the date once when both fall on one day', async () => {
    const late = alert({});
    const nextDay = alert({ id: 2, createdAt: at('23:30') + 86_400_000 });
    const onTime = alert({ id: 3, late: false, createdAt: at('19:00') + 300 });
    mount(
      [ed(1)],
      { listAlerts: () => [late, nextDay, onTime] },
      { settings: { timeZone: 'UTC' } },
    );
    const [one, two, three] = await metas();
    expect(one).toMatch(/^Late print · silent · released 9 Dec 2026, 19:00 · seen 19:20$/);
    expect(two).toMatch(
      /^Late print · silent · released 9 Dec 2026, 19:00 · seen 10 Dec 2026, 23:30$/,
    );
    expect(three).toBe('released · 9 Dec 2026, 19:00');
  });
});

describe('a cleared filter stays cleared across screens (item 12)', () => {
  it('type “CPI”, clear it, switch to Settings at once and back: the box is empty, every row shown', async () => {
    const rows = [ed(1, { name: 'CPI (YoY)' }), ed(2, { name: 'Retail Sales' })];
    // the host filters by name, as the store does
    const m = mount(rows, {
      listEventDates: (i) =>
        rows.filter((r) => r.name.includes((i as { text?: string }).text ?? '')),
    });
    const box = () => screen.getByRole('searchbox', { name: 'Filter events by name' });
    await screen.findByText('Retail Sales');
    fireEvent.change(box(), { target: { value: 'CPI' } });
    await waitFor(() => expect(screen.queryByText('Retail Sales')).toBeNull());
    fireEvent.change(box(), { target: { value: '' } });
    // inside the 250 ms debounce
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.queryByRole('searchbox')).toBeNull(); // the calendar screen is gone
    fireEvent.click(screen.getByRole('button', { name: 'Calendar' }));
    expect((box() as HTMLInputElement).value).toBe('');
    expect(m.stores.calendar.getState().filters.text).toBe('');
    // the calendar is asked again without the text
    const lastText = () =>
      (m.calls.filter(([method]) => method === 'listEventDates').at(-1)?.[1] as { text?: string })
        .text;
    await waitFor(() => expect(lastText()).toBeUndefined());
    expect(await screen.findByText('Retail Sales')).toBeTruthy();
  });
});

describe('the grid by keyboard (item 13)', () => {
  // 40 releases a minute apart from 10:00 UTC the day before yesterday: in the loaded window,
  // on one day (shown in UTC: one day header, then the rows), the now line after them all
  const DAY = 86_400_000;
  const base = Math.floor(Date.now() / DAY - 2) * DAY + 10 * 3_600_000;
  const day = Array.from({ length: 40 }, (_, i) =>
    ed(100 + i, {
      eventId: `e${100 + i}`,
      name: `Release ${i}`,
      dateUtc: new Date(base + i * 60_000).toISOString(),
    }),
  );
  const grid = () => screen.getByRole('grid', { name: 'Economic releases' });
  /** The name of the release the grid's aria-activedescendant names, or why it names none. */
  const active = () => {
    const id = grid().getAttribute('aria-activedescendant');
    if (!id) return 'no active row';
    const el = document.getElementById(id);
    return el ? el.querySelector('.name-text')?.textContent : `${id}: no such element`;
  };
  const press = (key: string) => fireEvent.keyDown(grid(), { key });

  it('PageDown and PageUp move the active row a screenful, stopping at the ends', async () => {
    mount(day, {}, { settings: { timeZone: 'UTC' } });
    await screen.findAllByTestId('event-row');
    press('Home');
    expect(active()).toBe('Release 0');
    // jsdom has no layout: the grid counts 600 px, 15 rows, one of them the header
    press('PageDown');
    expect(active()).toBe('Release 14');
    press('PageDown');
    expect(active()).toBe('Release 28');
    press('PageDown');
    expect(active()).toBe('Release 39');
    press('PageUp');
    expect(active()).toBe('Release 25');
    press('PageUp');
    press('PageUp');
    expect(active()).toBe('Release 0');
  });

  it('keeps the active row on its release when a row lands above it', async () => {
    const m = mount(day, {}, { settings: { timeZone: 'UTC' } });
    await screen.findAllByTestId('event-row');
    press('Home');
    press('j');
    expect(active()).toBe('Release 1');
    const earlier = ed(99, { name: 'Added', dateUtc: new Date(base - 30 * 60_000).toISOString() });
    act(() =>
      m.stores.calendar
        .getState()
        .applyChanges([{ kind: 'eventDateAdded', eventDate: earlier, source: 'poll' }]),
    );
    await screen.findByText('Added');
    expect(active()).toBe('Release 1');
    // scrolled far below it, the active row is still an element (the grid keeps it)
    fireEvent.scroll(grid(), { target: { scrollTop: 1200 } });
    await waitFor(() => expect(screen.queryByText('Release 10')).toBeNull());
    expect(active()).toBe('Release 1');
  });

  it('after Escape closes a detail opened from an alert, the active row is that release', async () => {
    const m = mount(day, {}, { settings: { timeZone: 'UTC' } });
    await screen.findAllByTestId('event-row');
    expect(active()).toBe('no active row');
    act(() => m.stores.app.getState().openEvent('e105'));
    await waitFor(() => expect(m.stores.app.getState().eventId).toBe('e105'));
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(m.stores.app.getState().eventId).toBeNull());
    await waitFor(() => expect(active()).toBe('Release 5'));
    expect(document.activeElement).toBe(grid());
  });
});

describe('a demo story says it is one (item 6)', () => {
  const story: Post = postFixture({
    id: 'p1',
    title: 'EUR/USD slips',
    authorName: 'Mara Lindqvist',
  });
  const openStory = async (demo: boolean) => {
    mount(
      [],
      {
        listPosts: () => ({ items: [story], page: 1, pageSize: 30, total: 1 }),
        getPost: () => story,
        markPostRead: () => null,
      },
      { status: { ...status, demo } },
    );
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', {
        name: /^News/,
      }),
    );
    fireEvent.click(await screen.findByText('EUR/USD slips'));
    return screen.findByTestId('post-reader');
  };

  it('marks the story in the reader in demo mode', async () => {
    const reader = await openStory(true);
    expect(within(reader).getByTestId('demo-story').textContent).toBe(
      'Demo story — invented text, not market news',
    );
  });

  it('marks nothing on the live service', async () => {
    const reader = await openStory(false);
    expect(within(reader).queryByTestId('demo-story')).toBeNull();
    expect(reader.textContent).toContain('EUR/USD slips');
  });
});

describe('the status bar at the start and after a failure (item 8)', () => {
  const label = () => screen.getByTestId('connection-label').textContent;
  const age = () =>
    screen.getByTestId('status-bar').textContent?.match(/Last answer (\S+ ago)/)?.[1];

  it('says “Connecting…” (not a red “Offline”) until the first status arrives', async () => {
    let answer: (s: typeof status) => void = () => undefined;
    const first = new Promise<typeof status>((resolve) => (answer = resolve));
    mount([ed(1)], { getStatus: () => first });
    expect(label()).toBe('Connecting…');
    expect(screen.getByTestId('status-bar').querySelector('.dot-bad')).toBeNull();
    answer(status);
    await waitFor(() => expect(label()).toBe('Live (polling)'));
  });

  it('never moves the last answer back, and reads it again while the state stays the same', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const t0 = Date.now();
      let served = { ...status, lastSyncAt: t0 - 180_000 };
      const m = mount([ed(1)], { getStatus: () => served });
      await waitFor(() => expect(age()).toBe('3m ago'));
      // a 503: the push carries the state change and an older answer time
      act(() =>
        m.push('status', {
          ...status,
          lastSyncAt: t0 - 240_000,
          connection: { state: 'offline', transport: 'polling', reason: 'HTTP 503', since: t0 },
        }),
      );
      expect(label()).toBe('Offline');
      expect(age()).toBe('3m ago');
      // the core answered again meanwhile (it pushes states, not answers): read within 15 s
      served = { ...status, lastSyncAt: Date.now() - 5_000 };
      await act(() => vi.advanceTimersByTimeAsync(15_000));
      await waitFor(() => expect(age()).toMatch(/^\d+s ago$/));
      expect(label()).toBe('Live (polling)');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('countdowns in view (item 9)', () => {
  const inMin = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
  const speech = {
    name: "BoE's Governor Bailey speech",
    countryCode: 'UK',
    volatility: 'HIGH',
    isSpeech: true,
    consensus: null,
    previous: null,
  };

  it('the window title counts down to the next high-impact release with a figure', async () => {
    const rows = [
      ed(1, { name: 'EIA Crude Oil Stocks Change', volatility: 'LOW', dateUtc: inMin(5) }),
      ed(2, { ...speech, dateUtc: inMin(10) }),
      ed(3, { name: 'Nonfarm Payrolls', volatility: 'HIGH', dateUtc: inMin(23) }),
    ];
    // the host filters by name, as the store does
    const m = mount(rows, {
      listEventDates: (i) =>
        rows.filter((r) => r.name.includes((i as { text?: string }).text ?? '')),
    });
    await waitFor(() =>
      expect(document.title).toMatch(/^US Nonfarm Payrolls in 2[23]m \d\ds · Macrobell$/),
    );
    // a filter that hides it from the grid does not take it from the title
    await act(() =>
      m.stores.calendar
        .getState()
        .setFilters({ volatilities: [], countries: [], categories: [], text: 'Crude' }),
    );
    await waitFor(() => expect(screen.queryByText('Nonfarm Payrolls')).toBeNull());
    expect(document.title).toMatch(/^US Nonfarm Payrolls in 2[23]m/);
    cleanup();
    expect(document.title).toBe('Macrobell');
  });

  it('while a news window is open, the title counts down to its end', async () => {
    const nw = {
      enabled: true,
      minutesBefore: 2,
      minutesAfter: 2,
      impacts: ['HIGH'],
      alerts: false,
    };
    mount(
      [ed(1, { name: 'Nonfarm Payrolls', volatility: 'HIGH', dateUtc: inMin(1) })],
      {},
      { settings: { newsWindow: nw as Settings['newsWindow'] } },
    );
    // opened a minute ago (2 min before the print), closes 2 min after it
    await waitFor(() => expect(document.title).toMatch(/^US NFP window · [23]m left · Macrobell$/));
  });

  it('“Next alert” skips a speech that prints no figure', async () => {
    mount([
      ed(1, { ...speech, dateUtc: inMin(10) }),
      ed(2, { name: 'Consumer Price Index (YoY)', volatility: 'HIGH', dateUtc: inMin(120) }),
    ]);
    const next = await screen.findByTestId('next-release');
    await waitFor(() => expect(next.textContent).toContain('Consumer Price Index (YoY)'));
    expect(next.textContent).not.toContain('Bailey');
  });
});

describe('one way to write a 12-hour time (item 14)', () => {
  it('writes “8:30 AM” in the grid and in the detail’s release list alike', async () => {
    const nfp = ed(1, { name: 'Nonfarm Payrolls', dateUtc: '2026-12-04T13:30:00Z' });
    mount(
      [nfp],
      { getEventDetail: () => ({ event: null, upcoming: [nfp], history: [], watched: false }) },
      { settings: { timeZone: 'America/New_York', hourCycle: 'h12' } },
    );
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('[data-event-date-id=ed1]');
      expect(r).not.toBeNull();
      return r as HTMLElement;
    });
    expect(row.querySelector('[data-col=time]')?.textContent).toMatch(/^8:30\sAM$/);
    fireEvent.click(row);
    const upcoming = await screen.findByRole('grid', { name: 'Upcoming releases' });
    const when = within(upcoming).getAllByRole('gridcell')[0]?.textContent;
    expect(when).toMatch(/^4 Dec 2026, 8:30\sAM$/);
  });
});
