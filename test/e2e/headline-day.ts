/**
 * A headline morning in the demo, as a trader in New York reads it (issue #45, "done
 * when"): the release's figures each printed at 08:30 ET in one row apiece, and the detail
 * of one of them saying where it comes from and how it moves the currency.
 */
import { expect } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import type { E2E } from './harness.js';

/** The US releases called `names` printed today, one each, after the grid shows New York time. */
export async function printedThisMorning(e: E2E, names: string[]): Promise<EventDate[]> {
  await e.service.api.updateSettings({ timeZone: 'America/New_York' });
  await e.page.reload();
  await e.page.locator('[data-testid=event-row]').first().waitFor({ timeout: 20_000 });
  const now = Date.now();
  const today = await e.service.api.listEventDates({
    from: new Date(now - 12 * 3_600_000).toISOString(),
    to: new Date(now).toISOString(),
  });
  return names.map((name) => {
    const found = today.filter((d) => d.countryCode === 'US' && d.name === name);
    expect(found, name).toHaveLength(1);
    const [ed] = found as [EventDate];
    expect(ed.actual, name).not.toBeNull();
    return ed;
  });
}

/** Its row in the grid, found by name filter: the time and a printed actual. */
export async function expectRowAt(e: E2E, ed: EventDate, time: string): Promise<void> {
  await e.page.getByLabel('Filter events by name').fill(ed.name);
  const rows = e.page.locator(`[data-testid=event-row][data-event-date-id="${ed.id}"]`);
  await rows.first().waitFor({ timeout: 15_000 });
  expect(await rows.count()).toBe(1);
  expect(await rows.locator('[data-col=time]').textContent()).toBe(time);
  expect((await rows.locator('[data-col=actual]').textContent())?.trim()).not.toBe('');
}

/** Opens its detail and reads the context list: label → text. */
export async function contextOf(e: E2E, ed: EventDate): Promise<Record<string, string>> {
  await e.page.getByLabel('Filter events by name').fill(ed.name);
  await e.page.locator(`[data-testid=event-row][data-event-date-id="${ed.id}"]`).click();
  const detail = e.page.getByTestId('event-detail');
  await detail.locator('dl.event-context').waitFor({ timeout: 15_000 });
  expect(await detail.locator('dl.event-context').count()).toBe(1);
  const labels = await detail.locator('dl.event-context dt').allTextContents();
  const texts = await detail.locator('dl.event-context dd').allTextContents();
  return Object.fromEntries(labels.map((l, n) => [l, texts[n] ?? '']));
}
