// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { printedRow, showPrintedDay, sim, startE2E, type E2E } from './harness.js';
import { expectAxeClean } from './axe.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const nav = (name: string) =>
  e.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();

describe('calendar', () => {
  it('fills from the cache with formatted rows and the demo label', async () => {
    const rows = e.page.locator('[data-testid=event-row]');
    expect(await rows.count()).toBeGreaterThan(10);
    // The session token was traded for a cookie and left the address bar.
    expect(e.page.url()).toBe(`${e.host.origin}/`);
    await expect.poll(() => e.page.getByTestId('demo-badge').textContent()).toBe('Demo data');
    const printed = e.page.locator('[data-testid=event-row] [data-col=actual]:not(:empty)').first();
    expect(await printed.textContent()).toMatch(/\d/);
    await expectAxeClean(e.page, 'calendar');
  });

  it('shows a release made through the simulator in its row within seconds', async () => {
    const dates = await sim<EventDate[]>(e, 'GET', '/_sim/event-dates');
    // A release the rules follow (LOW impact or above), whichever comes next in the data.
    const target = dates.find(
      (d) =>
        d.actual === null &&
        d.consensus !== null &&
        d.volatility !== 'NONE' &&
        Date.parse(d.dateUtc) > Date.now(),
    ) as EventDate;
    await e.page.getByLabel('Filter events by name').fill(target.name);
    const row = e.page.locator(`[data-event-date-id="${target.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.locator('[data-col=actual]').textContent()).toBe('');
    // The simulator sends the webhook; demo mode receives it and pushes the change to the page.
    await sim(e, 'PATCH', `/_sim/event-dates/${target.id}`, { actual: 777.7 });
    await expect
      .poll(() => row.locator('[data-col=actual]').textContent(), { timeout: 10_000 })
      .toMatch(/777\.7/);
    await e.page.getByLabel('Filter events by name').fill('');
  });

  it('filters by impact and text, and keeps the filters after a reload', async () => {
    await e.page.getByRole('button', { name: 'High', exact: true }).click();
    await expect
      .poll(async () => {
        const impacts = await e.page
          .locator('[data-testid=event-row] [data-col=impact]')
          .allTextContents();
        return impacts.length > 0 && impacts.every((t) => t.includes('high'));
      })
      .toBe(true);
    await e.page.reload();
    await e.page.locator('[data-testid=event-row]').first().waitFor();
    expect(
      await e.page.getByRole('button', { name: 'High', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    await e.page.getByRole('button', { name: 'High', exact: true }).click();
    await e.page.getByLabel('Filter events by name').fill('Nonfarm');
    await expect
      .poll(async () => {
        const names = await e.page
          .locator('[data-testid=event-row] [data-col=name]')
          .allTextContents();
        return names.length > 0 && names.every((n) => n.includes('Nonfarm'));
      })
      .toBe(true);
    await e.page.getByLabel('Filter events by name').fill('');
  });

  it('filters by currency: EUR shows the euro area and its members only', async () => {
    const eur = e.page
      .getByRole('group', { name: 'Currencies' })
      .getByRole('button', { name: 'EUR', exact: true });
    await eur.click();
    const all = async (col: string) =>
      e.page.locator(`[data-testid=event-row] [data-col=${col}]`).allTextContents();
    await expect
      .poll(async () => {
        const ccy = await all('currency');
        return ccy.length > 0 && ccy.every((c) => c === 'EUR');
      })
      .toBe(true);
    // the code matched the currency of each release (no US rows), not one country
    const countries = new Set((await all('country')).map((c) => c.trim().split(' ').at(-1)));
    expect(countries.has('US')).toBe(false);
    await eur.click();
    await expect.poll(async () => new Set(await all('currency')).size).toBeGreaterThan(1);
  });

  it('opens an event with its history chart and a watch toggle', async () => {
    await showPrintedDay(e);
    await printedRow(e).click();
    await e.page.getByTestId('history-chart').waitFor({ timeout: 10_000 });
    expect(await e.page.locator('[data-testid=history-chart] circle').count()).toBeGreaterThan(2);
    await e.page.getByLabel(/Alert me for this event/).check();
    const rules = await e.service.api.getAlertRules();
    expect(rules.watchedEventIds.length).toBe(1);
    await expectAxeClean(e.page, 'event detail');
  });
});

describe('news', () => {
  it('lists, reads and searches cached stories', async () => {
    await nav('News');
    await e.page.getByTestId('post-item').first().click();
    await e.page.getByTestId('post-reader').waitFor();
    const title = await e.page.locator('[data-testid=post-reader] > h2').textContent();
    expect(title?.length).toBeGreaterThan(5);
    await e.page.getByLabel('Search news').fill('Payrolls');
    await expect
      .poll(() => e.page.locator('[data-testid=post-item] mark').count())
      .toBeGreaterThan(0);
    await e.page.getByLabel('Search news').fill('');
    await expect.poll(() => e.page.locator('[data-testid=post-item] mark').count()).toBe(0);
    await expectAxeClean(e.page, 'news');
  });

  it('renders a hostile post as text with nothing executed', async () => {
    let dialogs = 0;
    e.page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    const hostile = [
      '<p>Safe paragraph about CPI.</p>',
      '<script>window.__pwned = "script"</script>',
      '<img src="x" onerror="window.__pwned = \'onerror\'">',
      '<a href="javascript:window.__pwned=\'link\'" id="evil">click me</a>',
      '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
      '<iframe src="javascript:alert(1)"></iframe>',
    ].join('');
    const post = await sim<{ Id: string }>(e, 'POST', '/_sim/posts', {
      culture: 'en-US',
      title: 'Hostile markup test',
      content: hostile,
    });
    await e.page.getByLabel('Search news').fill('Hostile');
    // the search's answer, not the list before it: exactly the one hostile post
    const hostileItem = e.page.getByTestId('post-item').filter({ hasText: 'Hostile markup test' });
    await expect.poll(() => hostileItem.count(), { timeout: 10_000 }).toBe(1);
    await hostileItem.click();
    await e.page.getByText('Safe paragraph about CPI.').waitFor();
    await e.page
      .locator('[data-testid=post-reader] a', { hasText: 'click me' })
      .click()
      .catch(() => undefined);
    const state = await e.page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
      scripts: document.querySelectorAll(
        '[data-testid=post-reader] script, [data-testid=post-reader] svg, [data-testid=post-reader] iframe',
      ).length,
      handlers: [...document.querySelectorAll('[data-testid=post-reader] *')].filter((el) =>
        [...el.attributes].some((a) => a.name.startsWith('on')),
      ).length,
      jsLinks: [...document.querySelectorAll('[data-testid=post-reader] a')].filter((a) =>
        (a.getAttribute('href') ?? '').toLowerCase().startsWith('javascript'),
      ).length,
    }));
    expect(state).toEqual({ pwned: null, scripts: 0, handlers: 0, jsLinks: 0 });
    expect(dialogs).toBe(0);
    expect(post.Id).toBeTruthy();
    await e.page.getByLabel('Search news').fill('');
  });
});

describe('alerts and settings', () => {
  it('lists an alert for a release a user follows, next to the rule editor', async () => {
    await e.service.api.setAlertRules({
      ...(await e.service.api.getAlertRules()),
      minVolatility: 'LOW',
    });
    await nav('Alerts');
    await e.page.getByRole('form', { name: 'Alert rules' }).waitFor();
    const dates = await sim<EventDate[]>(e, 'GET', '/_sim/event-dates');
    // a release the rules follow: at least LOW impact (the next one may be a NONE-impact
    // auction, depending on the time of day the suite runs, and that one rightly never alerts)
    const target = dates.find(
      (d) =>
        d.actual === null &&
        d.consensus !== null &&
        d.volatility !== 'NONE' &&
        Date.parse(d.dateUtc) > Date.now(),
    ) as EventDate;
    await sim(e, 'PATCH', `/_sim/event-dates/${target.id}`, {
      actual: (target.consensus as number) + 1,
    });
    await expect
      .poll(() => e.page.getByRole('list', { name: 'Alert history' }).textContent(), {
        timeout: 15_000,
      })
      .toContain(target.name);
    await expectAxeClean(e.page, 'alerts');
  });

  it('never shows a stored secret, in the page or in any API response', async () => {
    const secret = 'sk-E2E-NEVER-SHOWN-4242';
    await e.secrets.set('publicKey', 'pk-e2e-visible-id');
    await e.secrets.set('privateKey', secret);
    const bodies: string[] = [];
    e.page.on('response', async (r) => {
      if (r.url().includes('/api/')) bodies.push(await r.text().catch(() => ''));
    });
    await nav('Settings');
    await e.page.getByTestId('credentials-state').waitFor();
    await expect
      .poll(() => e.page.getByTestId('credentials-state').textContent())
      .toMatch(/Configured/);
    const html = await e.page.content();
    expect(html).not.toContain(secret);
    for (const input of await e.page.locator('input').all())
      expect(await input.inputValue()).not.toContain(secret);
    expect(bodies.join('\n')).not.toContain(secret);
    await expectAxeClean(e.page, 'settings');
  });
});

describe('offline', () => {
  it('keeps showing cached calendar and news when the service is gone', async () => {
    const simUrl = e.simulatorUrl;
    await fetch(`${simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api: { status: 503, count: 1000 },
        token: { status: 503, error: 'temporarily_unavailable', count: 1000 },
      }),
    });
    await fetch(`${simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ expireTokens: true }),
    });
    await e.service.api.syncNow();
    await e.page.reload();
    await e.page.getByTestId('offline-banner').waitFor({ timeout: 15_000 });
    // the banner can paint before the cached rows arrive: wait for them, bounded
    await expect
      .poll(() => e.page.locator('[data-testid=event-row]').count(), { timeout: 15_000 })
      .toBeGreaterThan(5);
    await nav('News');
    await expect
      .poll(() => e.page.getByTestId('post-item').count(), { timeout: 15_000 })
      .toBeGreaterThan(5);
    await fetch(`${simUrl}/_sim/faults`, { method: 'DELETE' });
  });
});
