// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertRecord, DomainChange, EventDate, Post } from '../../../src/shared/domain.js';
import { DEFAULT_SETTINGS } from '../../../src/shared/domain.js';
import { createStores, StoresContext } from '../../../src/renderer/src/state/index.js';
import { App } from '../../../src/renderer/src/components/App.js';
import { sanitizePost, sanitizeSnippet } from '../../../src/renderer/src/lib/sanitize.js';
import { dayKey } from '../../../src/renderer/src/lib/time.js';

import { ed, mount, now, status, testBridge } from './harness.js';

afterEach(cleanup);

describe('demo ⇄ live', () => {
  it('reloads the calendar, news and alerts when keys switch the core to live data', async () => {
    const t = mount([ed(5)]); // now: in today's view whatever the time of day
    await screen.findByText('Indicator 5');
    const LOADS = ['listEventDates', 'listPosts', 'listAlerts'];
    const loads = () => t.calls.filter(([m]) => LOADS.includes(m)).length;
    // the first view's own loads first (the news asks after the calendar's rows show)
    await waitFor(() => expect(t.calls.some(([c]) => c === 'listPosts')).toBe(true));
    const before = loads();
    act(() => t.push('status', { ...status, demo: true })); // same mode: nothing to reload
    expect(loads()).toBe(before);
    const categories = () => t.calls.filter(([m]) => m === 'listCategories').length;
    const categoriesBefore = categories();
    act(() => t.push('status', { ...status, demo: false }));
    await waitFor(() => expect(loads()).toBeGreaterThanOrEqual(before + 3));
    // the filter menu's categories are the live service's, not the demo's
    expect(categories()).toBe(categoriesBefore + 1);
  });
});

describe('calendar', () => {
  it('shows values with unit, a text cue for the surprise, and the revised previous', async () => {
    mount([
      ed(1, { actual: 275, isBetterThanExpected: true, revised: 210 }),
      ed(2, { actual: 150, isBetterThanExpected: false }),
    ]);
    const row = await screen.findByText('Indicator 1');
    const cells = row.closest('[data-testid=event-row]') as HTMLElement;
    expect(cells.querySelector('[data-col=actual]')?.textContent).toBe('275K ▲');
    expect(cells.querySelector('[data-col=actual] .cue')?.getAttribute('aria-label')).toBe(
      'above consensus, better than expected',
    );
    expect(cells.querySelector('[data-col=previous]')?.textContent).toBe('210K rev. from 229K');
    const miss = (await screen.findByText('Indicator 2')).closest(
      '[data-testid=event-row]',
    ) as HTMLElement;
    expect(miss.querySelector('[data-col=actual] .cue')?.getAttribute('aria-label')).toBe(
      'below consensus, worse than expected',
    );
  });

  it('persists filters through the settings', async () => {
    const t = mount([ed(1)]);
    await screen.findByText('Indicator 1');
    fireEvent.click(screen.getByRole('button', { name: 'High' }));
    await waitFor(() =>
      expect(
        t.calls.some(
          ([m, i]) =>
            m === 'updateSettings' && JSON.stringify(i).includes('"volatilities":["HIGH"]'),
        ),
      ).toBe(true),
    );
    expect(t.calls.filter(([m]) => m === 'listEventDates').at(-1)?.[1]).toMatchObject({
      volatilities: ['HIGH'],
    });
  });

  it('updates a row live when a value prints', async () => {
    const t = mount([ed(1)]);
    const row = (await screen.findByText('Indicator 1')).closest(
      '[data-testid=event-row]',
    ) as HTMLElement;
    expect(row.querySelector('[data-col=actual]')?.textContent).toBe('');
    const change: DomainChange = {
      kind: 'released',
      eventDate: ed(1, { actual: 301, isBetterThanExpected: true }),
      source: 'relay',
    };
    act(() => t.push('changes', [change]));
    await waitFor(() => expect(row.querySelector('[data-col=actual]')?.textContent).toBe('301K ▲'));
    expect(row.className).toContain('flash');
  });

  it('virtualises: thousands of releases, a screenful of rows in the DOM', async () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      ed(i, { dateUtc: new Date(now + i * 600_000).toISOString() }),
    );
    mount(many);
    await screen.findAllByTestId('event-row');
    expect(screen.getAllByTestId('event-row').length).toBeLessThan(100);
    // every release and day header is still announced to assistive technology
    expect(
      Number(screen.getByRole('grid', { name: 'Economic releases' }).getAttribute('aria-rowcount')),
    ).toBeGreaterThan(3000);
  });
});

describe('settings', () => {
  it('never renders a stored secret: write-only fields, masked id only', async () => {
    mount([]);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await screen.findByText(/Configured \(pk-A…yz\)/);
    for (const label of ['Public key', 'Private key', 'Relay token'])
      expect((screen.getByLabelText(label) as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toMatch(/sk-|privateKey/);
    const privateField = screen.getByLabelText('Private key') as HTMLInputElement;
    expect(privateField.type).toBe('password');
    expect(privateField.value).toBe('');
  });
});

describe('sanitising', () => {
  it('strips scripts, handlers, javascript: links and SVG from posts', () => {
    const { html } = sanitizePost(
      '<p onclick="x()">Hi</p><script>alert(1)</script><a href="javascript:alert(1)">l</a><svg onload="x()"><circle/></svg><a href="https://fxstreet.com">ok</a>',
      false,
    );
    expect(html).not.toMatch(/script|onclick|onload|javascript:|<svg/i);
    expect(html).toContain('href="https://fxstreet.com"');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it('blocks remote images unless allowed', () => {
    expect(sanitizePost('<img src="https://img.example/a.png">', false)).toMatchObject({
      blockedImages: 1,
    });
    expect(sanitizePost('<img src="https://img.example/a.png">', true).html).toContain(
      'https://img.example/a.png',
    );
  });

  it('keeps search marks and nothing else', () => {
    expect(sanitizeSnippet('a <mark>gold</mark> &lt;b&gt; <img src=x onerror=alert(1)>')).toBe(
      'a <mark>gold</mark> &lt;b&gt; ',
    );
  });
});

const post = (over: Partial<Post> = {}): Post => ({
  id: 'p1',
  culture: 'en-US',
  title: 'Gold rallies',
  summary: null,
  contentHtml: '<p>Body</p>',
  publicationDate: new Date(now - 60_000).toISOString(),
  updateDate: null,
  url: null,
  imageUrl: null,
  authorName: 'Ann Analyst',
  companyName: null,
  categories: [],
  tags: [],
  ...over,
});
const summaryOf = (p: Post) => ({
  id: p.id,
  culture: p.culture,
  title: p.title,
  summary: p.summary,
  publicationDate: p.publicationDate,
  authorName: p.authorName,
  read: false,
});

describe('news', () => {
  it('renders search marks but shows other markup as text', async () => {
    const hostile = post({ id: 'p2', title: 'Hostile' });
    mount([], {
      listPosts: () => ({ items: [summaryOf(hostile)], page: 1, pageSize: 30, total: 1 }),
      searchPosts: () => [
        {
          id: 'p2',
          culture: 'en-US',
          title: 'Hostile',
          snippetHtml: 'buy <mark>gold</mark> &lt;img src=x onerror=alert(1)&gt;',
          publicationDate: hostile.publicationDate,
        },
      ],
    });
    fireEvent.click(screen.getByRole('button', { name: 'News' }));
    fireEvent.change(await screen.findByLabelText('Search news'), { target: { value: 'gold' } });
    const hit = await screen.findByRole('list', { name: 'Search results' });
    await waitFor(() => expect(hit.querySelector('mark')?.textContent).toBe('gold'));
    expect(hit.querySelector('img')).toBeNull();
    expect(hit.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('reads a post sanitised, blocks its images, marks it read and opens links outside', async () => {
    const p = post({
      contentHtml:
        '<p>Text</p><img src="https://img.example/x.png" onerror="alert(1)"><a href="https://fxstreet.com/a">more</a><a href="javascript:alert(1)">bad</a>',
    });
    const t = mount([], {
      listPosts: () => ({ items: [summaryOf(p)], page: 1, pageSize: 30, total: 1 }),
      getPost: () => p,
      markPostRead: () => null,
    });
    const opened: string[] = [];
    window.open = ((url: string) => (opened.push(url), null)) as typeof window.open;
    fireEvent.click(screen.getByRole('button', { name: 'News' }));
    fireEvent.click(await screen.findByTestId('post-item'));
    const reader = await screen.findByTestId('post-reader');
    expect(reader.querySelector('img')?.getAttribute('src') ?? null).toBeNull();
    expect(reader.innerHTML).not.toMatch(/onerror|javascript:/);
    expect(reader.textContent).toContain('Images blocked');
    await waitFor(() =>
      expect(t.calls).toContainEqual(['markPostRead', { id: 'p1', culture: 'en-US' }]),
    );
    fireEvent.click(screen.getByText('more'));
    expect(opened).toEqual(['https://fxstreet.com/a']);
  });
});

describe('news reader', () => {
  const openPost = async (p: Post) => {
    mount([], {
      listPosts: () => ({ items: [summaryOf(p)], page: 1, pageSize: 30, total: 1 }),
      getPost: () => p,
      markPostRead: () => null,
    });
    fireEvent.click(screen.getByRole('button', { name: 'News' }));
    fireEvent.click(await screen.findByTestId('post-item'));
    return screen.findByTestId('post-reader');
  };

  it('shows the opening sentence once when the summary repeats the body', async () => {
    const reader = await openPost(
      post({
        summary: 'US ADP Employment Change came in at 39K.',
        contentHtml:
          '<p>US ADP Employment  Change came in at <b>39K</b>. EUR/USD turned firmer.</p>',
      }),
    );
    expect(reader.textContent?.match(/came in at/g)).toHaveLength(1);
  });

  it('keeps a summary that says something the body does not', async () => {
    const reader = await openPost(
      post({ summary: 'Payrolls beat by 40K.', contentHtml: '<p>The labour market held up.</p>' }),
    );
    expect(reader.querySelector('.summary')?.textContent).toBe('Payrolls beat by 40K.');
  });
});

describe('alerts', () => {
  const alert: AlertRecord = {
    id: 7,
    kind: 'released',
    title: 'US Nonfarm Payrolls 275K',
    body: 'beat 200K',
    createdAt: now,
    read: false,
    target: { type: 'eventDate', eventDateId: 'ed1', eventId: 'e1' },
  };

  it('shows a pushed alert at once; a click marks it read and opens the event', async () => {
    const t = mount([ed(1)], { markAlertsRead: () => null, getEventDetail: () => null });
    fireEvent.click(screen.getByRole('button', { name: 'Alerts' }));
    await screen.findByText(/No alerts yet/);
    act(() => t.push('alert', alert));
    fireEvent.click(await screen.findByText('US Nonfarm Payrolls 275K'));
    expect(t.calls).toContainEqual(['markAlertsRead', { ids: [7] }]);
    expect(await screen.findByRole('complementary', { name: /details/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Calendar' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('rules pick countries and currencies from the calendar’s chips (codes only)', async () => {
    const t = mount([]);
    fireEvent.click(screen.getByRole('button', { name: 'Alerts' }));
    const countries = await screen.findByRole('group', { name: 'Countries' });
    fireEvent.click(within(countries).getByRole('button', { name: 'US' }));
    fireEvent.click(within(countries).getByRole('button', { name: 'EMU' }));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Currencies' })).getByRole('button', {
        name: 'USD',
      }),
    );
    expect(screen.queryByRole('textbox', { name: /^Countries/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(t.calls.find(([m]) => m === 'setAlertRules')?.[1]).toMatchObject({
        countries: ['US', 'EMU'],
        currencies: ['USD'],
      }),
    );
    expect(await screen.findByText('Saved.')).toBeTruthy();
  });

  it('a stored code no release carries ("USA") is called out and can be removed', async () => {
    const t = mount([], {
      getAlertRules: () => ({ ...DEFAULT_SETTINGS.alertRules, countries: ['USA', 'US'] }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Alerts' }));
    const warning = await screen.findByText(/"USA" is not a code Macrobell knows/);
    fireEvent.click(within(warning).getByRole('button', { name: 'Remove' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(t.calls.find(([m]) => m === 'setAlertRules')?.[1]).toMatchObject({
        countries: ['US'],
      }),
    );
  });

  it('quiet hours read in the app’s clock setting, not the browser locale', async () => {
    mount([]);
    fireEvent.click(screen.getByRole('button', { name: 'Alerts' }));
    const from = (await screen.findByRole('combobox', { name: 'From' })) as HTMLSelectElement;
    expect(from.selectedOptions[0]?.textContent).toBe('22:00');
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.change(await screen.findByRole('combobox', { name: 'Clock' }), {
      target: { value: 'h12' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Alerts' }));
    const from12 = (await screen.findByRole('combobox', { name: 'From' })) as HTMLSelectElement;
    await waitFor(() => expect(from12.selectedOptions[0]?.textContent).toBe('10:00 PM'));
    expect(
      (screen.getByRole('combobox', { name: 'to' }) as HTMLSelectElement).selectedOptions[0]
        ?.textContent,
    ).toBe('7:00 AM');
  });
});

describe('shell', () => {
  it('follows navigate pushes from notifications and the tray', async () => {
    const p = post();
    const t = mount([], {
      listPosts: () => ({ items: [summaryOf(p)], page: 1, pageSize: 30, total: 1 }),
      getPost: () => p,
      markPostRead: () => null,
    });
    await screen.findByRole('grid', { name: 'Economic releases' });
    act(() => t.push('navigate', { type: 'post', postId: 'p1', culture: 'en-US' }));
    expect((await screen.findByTestId('post-reader')).textContent).toContain('Gold rallies');
    act(() => t.push('navigate', { type: 'settings' }));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  it('says when it is offline and since when, and shows demo data and the mode', async () => {
    // a release at this moment: in today's view whatever the time of day (ed(1), four hours
    // earlier, fell on yesterday between 00:00 and 04:00)
    const t = mount([ed(5)]);
    expect((await screen.findByTestId('demo-badge')).textContent).toBe('Demo data');
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    const reason = 'HTTP 503 from the calendar API';
    act(() =>
      t.push('status', {
        ...status,
        demo: false,
        connection: { state: 'offline', transport: 'relay', reason, since: now - 120_000 },
        mode: 'offline',
        online: false,
        lastSyncAt: now - 300_000,
      }),
    );
    const banner = (await screen.findByTestId('offline-banner')).textContent;
    expect(banner).toMatch(/^Offline since .+ — HTTP 503 from the calendar API\./);
    expect(banner).toMatch(/Showing cached data from .+ \(5m ago\)/);
    // the status bar tells the same story, with the same reason
    const bar = screen.getByTestId('status-bar').textContent;
    expect(bar).toContain('Offline');
    expect(bar).toContain(reason);
    expect(screen.queryByTestId('demo-badge')).toBeNull();
    // the cached rows stay on screen
    expect(await screen.findAllByTestId('event-row')).toHaveLength(1);
  });

  it('says demo data is shown because the keychain does not answer, once, until it does', async () => {
    const t = mount([ed(1)]);
    await screen.findByTestId('status-bar');
    expect(screen.queryByTestId('keychain-banner')).toBeNull();
    const locked = {
      ...status,
      demo: true,
      credentials: {
        ...status.credentials,
        keychainAvailable: false,
        keychainError: 'the keyring is locked',
      },
    };
    act(() => t.push('status', locked));
    const banners = await screen.findAllByTestId('keychain-banner');
    expect(banners).toHaveLength(1);
    expect(banners[0]?.textContent).toBe(
      'Demo data: the keychain does not answer, so saved keys cannot be read (Settings → Keys says why). Macrobell switches to them as soon as it does.',
    );
    // The keychain's own words, on hover (and in Settings → Keys).
    expect(banners[0]?.getAttribute('title')).toBe('the keyring is locked');
    act(() => t.push('status', { ...status, demo: false }));
    await waitFor(() => expect(screen.queryByTestId('keychain-banner')).toBeNull());
  });

  it('says when webhooks are late and the safety net carries the feed, then clears', async () => {
    const t = mount([ed(1)]);
    await screen.findByTestId('status-bar');
    const reason = 'Webhooks are not arriving; the safety net polls every release';
    act(() =>
      t.push('status', {
        ...status,
        connection: { state: 'late', transport: 'relay', reason, since: now - 60_000 },
      }),
    );
    expect((await screen.findByTestId('connection-banner')).textContent).toMatch(
      /^Webhooks late since .+: Webhooks are not arriving/,
    );
    expect(screen.getByTestId('connection-label').textContent).toBe('Live — webhooks late');
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    act(() => t.push('status', { ...status }));
    await waitFor(() => expect(screen.queryByTestId('connection-banner')).toBeNull());
    expect(screen.getByTestId('connection-label').textContent).toBe('Live (polling)');
  });
});

describe('calendar keyboard', () => {
  it('↑/↓ move the focused row, Enter opens its detail, / jumps to the filter', async () => {
    mount([ed(1), ed(2), ed(3)], { getEventDetail: () => null });
    await screen.findByText('Indicator 1');
    const grid = screen.getByRole('grid', { name: 'Economic releases' });
    grid.focus();
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowUp' });
    const selected = grid.querySelector('[aria-selected=true]') as HTMLElement;
    expect(grid.getAttribute('aria-activedescendant')).toBe(selected.id);
    const name = selected.querySelector('[data-col=name]')?.textContent ?? '';
    fireEvent.keyDown(grid, { key: 'Enter' });
    expect((await screen.findByRole('complementary', { name: /details/ })).textContent).toContain(
      name,
    );
    fireEvent.keyDown(grid, { key: '/' });
    expect(document.activeElement).toBe(screen.getByLabelText('Filter events by name'));
  });
});

describe('calendar store', () => {
  it('merges pushed changes: updates in place, adds inside the window only, removes', async () => {
    const t = testBridge([ed(1), ed(3)]);
    const stores = createStores(t.bridge, () => now);
    await stores.calendar.getState().load();
    const ids = () => stores.calendar.getState().rows.map((r) => r.id);
    t.push('changes', [
      { kind: 'eventDateAdded', eventDate: ed(2), source: 'poll' },
      {
        kind: 'eventDateAdded',
        eventDate: ed(99, { dateUtc: new Date(now + 60 * 86_400_000).toISOString() }),
        source: 'poll',
      },
      { kind: 'released', eventDate: ed(3, { actual: 1 }), source: 'relay' },
    ]);
    expect(ids()).toEqual(['ed1', 'ed2', 'ed3']);
    expect(stores.calendar.getState().rows[2]?.actual).toBe(1);
    expect(stores.calendar.getState().flashed).toHaveProperty('ed3');
    t.push('changes', [
      {
        kind: 'eventDateRemoved',
        eventDateId: 'ed1',
        eventId: 'e1',
        eventDate: ed(1),
        source: 'poll',
      },
    ]);
    expect(ids()).toEqual(['ed2', 'ed3']);
  });
});

describe('calendar currency filter', () => {
  it('filters by currency with chips beside the countries, persisted like them', async () => {
    const t = mount([ed(1), ed(2, { countryCode: 'DE', currencyCode: 'EUR' })]);
    await screen.findByText('Indicator 1');
    const currencies = screen.getByRole('group', { name: 'Currencies' });
    const eur = within(currencies).getByRole('button', { name: 'EUR' });
    expect(eur.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(eur);
    await waitFor(() => expect(eur.getAttribute('aria-pressed')).toBe('true'));
    // the service matches each code against the country or the currency of a release
    await waitFor(() =>
      expect(t.calls.filter(([m]) => m === 'listEventDates').at(-1)?.[1]).toMatchObject({
        countries: ['EUR'],
      }),
    );
    expect(t.calls).toContainEqual([
      'updateSettings',
      { calendarFilters: expect.objectContaining({ countries: ['EUR'] }) },
    ]);
    // a country chip adds to the selection; the currency chip toggles off on its own
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Countries' })).getByRole('button', { name: 'US' }),
    );
    await waitFor(() =>
      expect(t.calls.filter(([m]) => m === 'listEventDates').at(-1)?.[1]).toMatchObject({
        countries: ['EUR', 'US'],
      }),
    );
    fireEvent.click(eur);
    await waitFor(() => expect(eur.getAttribute('aria-pressed')).toBe('false'));
    expect(t.calls.filter(([m]) => m === 'listEventDates').at(-1)?.[1]).toMatchObject({
      countries: ['US'],
    });
  });
});

describe('calendar first render', () => {
  it('shows the rows without waiting for the category list', async () => {
    mount([ed(1)], { listCategories: () => new Promise(() => undefined) });
    expect(await screen.findByText('Indicator 1')).toBeTruthy();
  });

  it('opens on today, in the first render that has rows', async () => {
    // three weeks at 20-minute steps, starting a week ago: "now" is far down the list
    const many = Array.from({ length: 1500 }, (_, i) =>
      ed(i, { dateUtc: new Date(now - 7 * 86_400_000 + i * 1_200_000).toISOString() }),
    );
    const t = testBridge(many);
    const stores = createStores(t.bridge, () => now);
    const seen: string[][] = [];
    const mo = new MutationObserver(() =>
      seen.push(
        [...document.querySelectorAll('[data-testid=event-row]')].map(
          (r) => r.getAttribute('data-event-date-id') ?? '',
        ),
      ),
    );
    mo.observe(document.body, { childList: true, subtree: true });
    render(
      <StoresContext.Provider value={stores}>
        <App />
      </StoresContext.Provider>,
    );
    await screen.findAllByTestId('event-row');
    mo.disconnect();
    const firstWithRows = seen.find((ids) => ids.length > 0) ?? [];
    // the very first rows put in the DOM are today's, from its first release, or, when now
    // is more than a screenful into the day, the rows around now (no jump from the top of
    // the list after a second render)
    const day = dayKey(new Date(now).toISOString(), 'system');
    const firstOfDay = many.find((r) => dayKey(r.dateUtc, 'system') === day) as EventDate;
    const firstPending = many.find((r) => Date.parse(r.dateUtc) >= now) as EventDate;
    expect(firstWithRows).toContain(firstPending.id);
    expect(Number(firstWithRows[0]?.slice(2))).toBeGreaterThanOrEqual(
      Number(firstOfDay.id.slice(2)),
    );
    expect(firstWithRows).not.toContain('ed0');
  });

  it('ignores a late answer to an older filter', async () => {
    let release: (rows: EventDate[]) => void = () => undefined;
    let n = 0;
    const t = testBridge([], {
      listEventDates: () => (++n === 1 ? new Promise<EventDate[]>((r) => (release = r)) : [ed(2)]),
    });
    const stores = createStores(t.bridge, () => now);
    const first = stores.calendar.getState().load();
    await stores.calendar
      .getState()
      .setFilters({ volatilities: ['HIGH'], countries: [], categories: [], text: '' }, false);
    release([ed(1)]);
    await first;
    expect(stores.calendar.getState().rows.map((r) => r.id)).toEqual(['ed2']);
  });
});

describe('settings keys', () => {
  it('saves keys, then clears the fields; a connection test shows each scope verbatim', async () => {
    const t = mount([], {
      setCredentials: () => ({ ...status.credentials, maskedPublicKey: 'new-…42' }),
      testConnection: () => ({
        ok: false,
        scopes: {
          calendar: { ok: true, message: 'Token issued; calendar answered.' },
          news: { ok: false, message: 'invalid_scope: the key has no news access' },
        },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const pub = (await screen.findByLabelText('Public key')) as HTMLInputElement;
    const priv = screen.getByLabelText('Private key') as HTMLInputElement;
    fireEvent.change(pub, { target: { value: 'new-public-42' } });
    fireEvent.change(priv, { target: { value: 'very-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save keys' }));
    await screen.findByText(/Configured \(new-…42\)/);
    expect(t.calls).toContainEqual([
      'setCredentials',
      { publicKey: 'new-public-42', privateKey: 'very-secret' },
    ]);
    // The fields clear once the save has answered in full (after the status check).
    await waitFor(() => expect(pub.value).toBe(''));
    expect(priv.value).toBe('');
    expect(document.body.innerHTML).not.toContain('very-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const result = await screen.findByRole('list', { name: 'Connection test' });
    expect(result.textContent).toContain('invalid_scope: the key has no news access');
    expect(result.textContent).toContain('Token issued; calendar answered.');
  });

  it('offers no connection test before keys are saved (the demo keys would always pass)', async () => {
    mount([ed(1)], { getCredentials: () => ({ ...status.credentials, configured: false }) });
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await screen.findByLabelText('Public key');
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement).disabled,
      ).toBe(true),
    );
  });
});
