// @clock any-moment — makes its own release through the control API; no demo release is read
/**
 * Issue #36 item 3 in Chromium: a print that revises its previous figure (the simulator's
 * `revised`, as the service publishes it). The grid shows the revised previous in colour,
 * with the figure it was revised from under it and in its title; the detail says "Previous
 * 143K (revised from 119K)"; with "previous print revised" on, the print's one toast says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES, type EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('a revised previous', () => {
  it('shows in the grid, the detail and the one toast of the print', async () => {
    const name = 'Probe Nonfarm Payrolls';
    const event = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
      name,
      countryCode: 'US',
      currencyCode: 'USD',
      unit: null,
      potency: 'K',
      volatility: 'HIGH',
    });
    await e.service.api.setAlertRules({
      ...DEFAULT_ALERT_RULES,
      watchedEventIds: [event.id],
      changes: { ...DEFAULT_ALERT_RULES.changes, revised: true },
      reminderMinutes: 0,
    });
    const made = await sim<EventDate>(e, 'POST', '/_sim/event-dates', {
      eventId: event.id,
      name,
      dateUtc: new Date(Date.now() + 2 * 60_000).toISOString(),
      unit: null,
      potency: 'K',
      volatility: 'HIGH',
      isAllDay: false,
      actual: null,
      consensus: 150,
      previous: 119,
    });
    await e.page.getByLabel('Filter events by name').fill(name);
    const row = e.page.locator('[data-testid=event-row]').filter({ hasText: name });
    await row.waitFor({ timeout: 15_000 });
    const previous = row.locator('[data-col=previous]');
    expect(await previous.textContent()).toBe('119K');
    expect(await previous.getAttribute('class')).not.toContain('has-revised');

    await sim(e, 'PATCH', `/_sim/event-dates/${made.id}`, { actual: 175, revised: 143 });
    await expect
      .poll(() => previous.textContent(), { timeout: 15_000 })
      .toBe('143K rev. from 119K');
    expect(await previous.getAttribute('title')).toBe('Revised from 119K');
    expect(await previous.getAttribute('aria-label')).toBe('143K, revised from 119K');
    // in colour, unlike a previous that was not revised, and marked by more than colour
    const figure = previous.locator('.revised-figure');
    const plain = await row
      .locator('[data-col=consensus]')
      .evaluate((el) => getComputedStyle(el).color);
    const colourOf = () => figure.evaluate((el) => getComputedStyle(el).color);
    await expect.poll(colourOf, { timeout: 5_000 }).toMatch(/^rgb/); // attached
    expect(await colourOf()).not.toBe(plain);
    // polled: a re-render between finding the span and reading its style reads a detached
    // element, whose computed style is empty
    await expect
      .poll(() => figure.evaluate((el) => getComputedStyle(el, '::after').content), {
        timeout: 5_000,
      })
      .toContain('*');

    // one toast for the print, naming the revision
    const toasts = e.page.getByTestId('toast').filter({ hasText: name });
    await expect.poll(() => toasts.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => toasts.count(), { timeout: 5_000 }).toBe(1);
    // one alert recorded for the print and its revision: no second toast can follow
    const alerts = await e.service.api.listAlerts({ limit: 100 });
    expect(alerts.filter((a) => a.title.includes(name))).toHaveLength(1);
    expect(await toasts.textContent()).toContain('previous revised');
    expect(await toasts.locator('.toast-body').textContent()).toContain(
      'prev 143K, revised from 119K',
    );

    await row.click();
    const detail = e.page.getByTestId('event-detail');
    await detail.getByTestId('latest-print').waitFor({ timeout: 15_000 });
    expect(await detail.getByTestId('latest-previous').textContent()).toBe(
      ' · Previous 143K (revised from 119K)',
    );
    const listed = detail.locator('.occ-row').filter({ has: e.page.locator('.has-revised') });
    expect(await listed.count()).toBe(1);
    expect(await listed.locator('[data-col=previous]').getAttribute('title')).toBe(
      'Revised from 119K',
    );
  });
});
