// @clock any-moment — makes its own rate decision through the control API; the check needs no demo release
/**
 * Issue #36 item 1 in Chromium on a fresh data folder: a policy rate whose history was never
 * cached (an event of its own, one release) reads in hundredths on first view — the grid's
 * Actual, Consensus and Previous, and the toast of its print ("1.90% vs 1.90% consensus").
 * The service sends numbers: the hold at 1.90 arrives as 1.9.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('a policy rate on first view', () => {
  it('reads 1.90% in the grid and in the toast of its print', async () => {
    const name = 'Probe Interest Rate Decision';
    const event = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
      name,
      countryCode: 'EMU',
      currencyCode: 'EUR',
      unit: '%',
      potency: 'ZERO',
      volatility: 'HIGH',
    });
    const made = await sim<EventDate>(e, 'POST', '/_sim/event-dates', {
      eventId: event.id,
      name,
      dateUtc: new Date(Date.now() + 5 * 60_000).toISOString(),
      unit: '%',
      potency: 'ZERO',
      volatility: 'HIGH',
      isAllDay: false,
      actual: null,
      consensus: 1.9,
      previous: 1.9,
    });
    await e.page.getByLabel('Filter events by name').fill(name);
    const row = e.page.locator('[data-testid=event-row]').filter({ hasText: name });
    await row.waitFor({ timeout: 15_000 });
    const cell = (col: string) => row.locator(`[data-col=${col}]`).textContent();
    expect([await cell('consensus'), await cell('previous')]).toEqual(['1.90%', '1.90%']);

    await sim(e, 'PATCH', `/_sim/event-dates/${made.id}`, { actual: 1.9 });
    const toast = e.page.getByTestId('toast').filter({ hasText: name });
    await toast.waitFor({ timeout: 15_000 });
    expect(await toast.locator('.toast-body').textContent()).toContain(
      '1.90% vs 1.90% consensus (prev 1.90%)',
    );
    await expect.poll(() => cell('actual')).toMatch(/^1\.90%/);
  });

  it('every figure: a jobless rate of 4 reads 4.0%, payrolls of 143 read 143K (first view)', async () => {
    const probes: [string, string | null, string, number, number, string, string][] = [
      ['Probe Unemployment Rate', '%', 'ZERO', 4, 4.1, '4.0%', '4.1%'],
      ['Probe Nonfarm Payrolls', null, 'K', 143, 170, '143K', '170K'],
    ];
    for (const [
      name,
      unit,
      potency,
      consensus,
      previous,
      shownConsensus,
      shownPrevious,
    ] of probes) {
      const event = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
        name,
        countryCode: 'US',
        currencyCode: 'USD',
        unit,
        potency,
        volatility: 'HIGH',
      });
      await sim<EventDate>(e, 'POST', '/_sim/event-dates', {
        eventId: event.id,
        name,
        dateUtc: new Date(Date.now() + 5 * 60_000).toISOString(),
        unit,
        potency,
        volatility: 'HIGH',
        isAllDay: false,
        actual: null,
        consensus,
        previous,
      });
      await e.page.getByLabel('Filter events by name').fill(name);
      const row = e.page.locator('[data-testid=event-row]').filter({ hasText: name });
      await row.waitFor({ timeout: 15_000 });
      const cell = (col: string) => row.locator(`[data-col=${col}]`).textContent();
      expect([await cell('consensus'), await cell('previous')]).toEqual([
        shownConsensus,
        shownPrevious,
      ]);
    }
    await e.page.getByLabel('Filter events by name').fill('');
  });
});
