// @clock any-moment — it makes the releases it needs relative to now (the demo only lends an event id)
/**
 * The keyboard selection stays on its release when the rows update at a print, in
 * Chromium: select a release, it prints while another row appears above it, and Enter
 * still opens the selected release (it used to follow the row's index to another one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('grid selection', () => {
  it('select a release, it prints and a row appears above it: Enter opens the same release', async () => {
    const { page } = e;
    const dates = await sim<EventDate[]>(e, 'GET', '/_sim/event-dates');
    const [first, other] = [
      dates[0] as EventDate,
      dates.find((d) => d.eventId !== dates[0]?.eventId) as EventDate,
    ];
    const create = (eventId: string, inMs: number, name: string) =>
      sim<EventDate>(e, 'POST', '/_sim/event-dates', {
        eventId,
        dateUtc: new Date(Date.now() + inMs).toISOString(),
        volatility: 'HIGH',
        name,
      });
    const selected = await create(first.eventId, 4_000, 'Selected Payrolls');
    // one filter shows the selected release and, later, the row that lands above it
    await page.getByLabel('Filter events by name').fill('Selected ');
    const row = page.locator(`[data-event-date-id="${selected.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    await row.click(); // selects it (and opens its detail)
    await page.getByTestId('event-detail').waitFor();
    await page.keyboard.press('Escape'); // back to the grid, the row still selected
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');

    await page.waitForFunction((t) => Date.now() >= t, Date.parse(selected.dateUtc));
    const above = await create(other.eventId, -60_000, 'Selected Trade Balance');
    await sim(e, 'PATCH', `/_sim/event-dates/${selected.id}`, { actual: 275 });
    await page.locator(`[data-event-date-id="${above.id}"]`).waitFor({ timeout: 10_000 });
    await expect.poll(() => row.locator('[data-col=actual]').textContent()).toMatch(/275/);

    // the selection did not move: one selected row, the same release
    const selectedRows = page.locator('[data-testid=event-row][aria-selected=true]');
    expect(await selectedRows.count()).toBe(1);
    expect(await selectedRows.getAttribute('data-event-date-id')).toBe(selected.id);
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('event-detail');
    await detail.waitFor();
    const event = (await e.service.api.getEventDetail({ eventId: selected.eventId })).event;
    await expect
      .poll(() => detail.getAttribute('aria-label'))
      .toBe(`${event?.countryCode} ${event?.name} details`);
    await page.keyboard.press('Escape');
    await page.getByLabel('Filter events by name').fill('');
  });
});
