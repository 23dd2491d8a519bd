// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Web mode in Chromium: a print makes a toast (the `notification` event now reaches the
 * browser over the SSE push), with its impact's sound loaded from the app's own assets under
 * the strict CSP; a click on the toast opens the release.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;
const cspViolations: string[] = [];
beforeAll(async () => {
  e = await startE2E();
  e.page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
});
afterAll(() => e?.close());

describe('toasts', () => {
  it('a print makes a toast with its sound; a click opens the release', async () => {
    // a first click on the page: browsers let a page play sound only after one
    await e.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Calendar' })
      .click();
    const dates = await sim<EventDate[]>(e, 'GET', '/_sim/event-dates');
    // the default rules alert on HIGH impact
    const target = dates.find(
      (d) => d.actual === null && d.volatility === 'HIGH' && Date.parse(d.dateUtc) > Date.now(),
    ) as EventDate;
    expect(target).toBeDefined();
    await sim(e, 'PATCH', `/_sim/event-dates/${target.id}`, { actual: 321.5 });
    const toast = e.page.getByTestId('toast').filter({ hasText: target.name });
    await toast.waitFor({ timeout: 10_000 });
    expect(await toast.textContent()).toMatch(/321\.5/);

    // the high-impact sound was asked for and loads from 'self' (the CSP allows it)
    await expect
      .poll(() =>
        e.page.evaluate(() => {
          const a = document.querySelector<HTMLAudioElement>('audio[data-sound=HIGH]');
          return a ? { ready: a.readyState >= 2, played: a.played.length > 0 || !a.paused } : null;
        }),
      )
      .toEqual({ ready: true, played: true });
    expect(cspViolations).toEqual([]);

    await toast.locator('.toast-main').click();
    await expect.poll(() => toast.count()).toBe(0);
    // the release's detail panel opens
    await e.page
      .getByRole('complementary', { name: `${target.countryCode} ${target.name} details` })
      .waitFor({ timeout: 5_000 });
  });
});
