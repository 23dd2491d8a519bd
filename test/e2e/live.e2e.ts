// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * The feed with a relay configured (not the demo's direct webhooks), in Chromium: the
 * service's deliveries to the relay are lost and a HIGH release still prints in its row
 * within seconds of its time, with a toast (the safety net); after an API outage the banner clears by
 * itself and what changed meanwhile is there.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { startRelayStack, type RelayStack } from './relay-stack.js';

let stack: RelayStack;
let page: Page;
const control = <T = unknown>(method: string, path: string, body?: unknown) =>
  stack.control<T>(method, path, body);

beforeAll(async () => {
  stack = await startRelayStack({ seed: 9, name: 'live' });
  page = stack.page;
  await stack.page.locator('[data-testid=event-row]').first().waitFor({ timeout: 20_000 });
});

afterAll(async () => {
  await stack?.close();
});

describe('live feed through a relay', () => {
  it('says Live (relay) once the stream is open', async () => {
    await expect
      .poll(() => page.getByTestId('connection-label').textContent(), { timeout: 15_000 })
      .toBe('Live (relay)');
  });

  it('prints a known HIGH release in its row within 5 s while the relay hears nothing', async () => {
    const any = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0] as EventDate;
    const ed = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(Date.now() + 6_000).toISOString(),
      volatility: 'HIGH',
      consensus: 200,
    });
    // the app learns of it (the near-window read) before it prints
    await page.getByLabel('Filter events by name').fill(ed.name);
    const row = page.locator(`[data-event-date-id="${ed.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    await control('POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    await expect
      .poll(() => Date.now(), { timeout: 10_000 })
      .toBeGreaterThan(Date.parse(ed.dateUtc));
    await control('PATCH', `/_sim/event-dates/${ed.id}`, { actual: 275 });
    const printed = Date.now();
    await expect
      .poll(() => row.locator('[data-col=actual]').textContent(), { timeout: 5_000 })
      .toMatch(/275/);
    expect(Date.now() - printed).toBeLessThan(5_000);
    // and the trader hears of it without looking at the row: a toast with the print
    const toast = page.getByTestId('toast').filter({ hasText: ed.name });
    await expect.poll(() => toast.count(), { timeout: 5_000 }).toBeGreaterThan(0);
    // one print, one toast: strict locators from here on fail on a second one
    expect(await toast.count()).toBe(1);
    expect(await toast.textContent()).toMatch(/275/);
    // nothing reached the relay: the status soon says the safety net is carrying it
    await expect
      .poll(() => page.getByTestId('connection-label').textContent(), { timeout: 20_000 })
      .toBe('Live — webhooks late');
    await expect(page.getByTestId('connection-banner').textContent()).resolves.toMatch(
      /Webhooks late since/,
    );
    await control('DELETE', '/_sim/faults');
    await page.getByLabel('Filter events by name').fill('');
  });

  it('clears the Offline banner by itself within 10 s of the service answering again', async () => {
    await control('POST', '/_sim/faults', { api: { status: 503, count: 1_000_000 } });
    await page.getByTestId('offline-banner').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('offline-banner').textContent()).toMatch(
      /Offline since .* — The calendar service answered HTTP 503\. Showing cached data/,
    );
    const any = (await control<EventDate[]>('GET', '/_sim/event-dates'))[0] as EventDate;
    const during = await control<EventDate>('POST', '/_sim/event-dates', {
      eventId: any.eventId,
      dateUtc: new Date(Date.now() + 30 * 60_000).toISOString(),
      volatility: 'HIGH',
    });
    await control('DELETE', '/_sim/faults');
    const back = Date.now();
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 10_000 });
    expect(Date.now() - back).toBeLessThan(10_000);
    await page.getByLabel('Filter events by name').fill(during.name);
    await page.locator(`[data-event-date-id="${during.id}"]`).waitFor({ timeout: 10_000 });
    await page.getByLabel('Filter events by name').fill('');
  });
});
