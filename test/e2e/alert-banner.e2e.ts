// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Alerts that get through, in Chromium (web mode, where the browser stands for the OS):
 * "Send test alert" raises the toast through the core's delivery path and reports what the
 * browser did; when it will not notify, the banner stands in on top of the page with its
 * sound, and a HIGH print while the tab is not in focus brings the banner too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';
import { expectAxeCleanBothThemes } from './axe.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const highSoundPlayed = () =>
  e.page.evaluate(() => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-sound=HIGH]');
    return a ? a.played.length > 0 || !a.paused : false;
  });

describe('alert banner', () => {
  it('Send test alert: the toast, what the browser did with the fix, and the banner on top', async () => {
    const { page } = e;
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Settings' })
      .click();
    await page.getByRole('button', { name: 'Send test alert' }).click();

    // through the core's one delivery path: the toast
    await page.getByTestId('toast').filter({ hasText: 'Macrobell test alert' }).waitFor();
    // the browser has not been allowed to notify: suppressed, and what to do about it
    const result = page.getByTestId('test-alert-result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(
      /^Suppressed The browser will not show notifications/,
    );
    expect(await page.getByTestId('notification-check').textContent()).toMatch(
      /Browser notifications allowed — Press "Allow browser notifications" below/,
    );

    const banner = page.getByTestId('alert-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Macrobell test alert.*275K vs 200K consensus/);
    await expect.poll(highSoundPlayed).toBe(true);
    // on top of everything in the page: the point at its middle belongs to it
    const onTop = await banner.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    });
    expect(onTop).toBe(true);
    await page.screenshot({ path: process.env.BANNER_SHOT ?? '/dev/null' }).catch(() => undefined);

    await expectAxeCleanBothThemes(e.page, 'the banner over Settings with the test result');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => banner.count()).toBe(0);
  }, 180_000);

  it('a HIGH print while the tab is not in focus shows the banner (not a toast too), over no control, until dismissed', async () => {
    const { page } = e;
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Calendar' })
      .click();
    await page.getByLabel('Filter events by name').waitFor();
    // the trader is in the trading platform: headless Chromium keeps every page focused (it
    // has no window manager), so the platform's answer is stubbed
    await page.evaluate(() => {
      document.hasFocus = () => false;
    });

    const dates = await sim<EventDate[]>(e, 'GET', '/_sim/event-dates');
    const target = dates.find(
      (d) => d.actual === null && d.volatility === 'HIGH' && Date.parse(d.dateUtc) > Date.now(),
    ) as EventDate;
    await sim(e, 'PATCH', `/_sim/event-dates/${target.id}`, { actual: 321.5 });
    const banner = page.getByTestId('alert-banner');
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain(target.name);
    // one surface per alert: the banner, not a toast with the same text as well
    await page.waitForTimeout(1_500); // past the toast's would-be arrival and the ack deadline
    expect(await page.getByTestId('toast').filter({ hasText: target.name }).count()).toBe(0);
    expect(await banner.count()).toBe(1);
    // it covers no control meanwhile: the search box and the filter chips are theirs to click
    for (const control of [
      page.getByLabel('Filter events by name'),
      page.getByRole('group', { name: 'Impact' }).getByRole('button').first(),
    ]) {
      const atItsMiddle = await control.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return el.contains(hit) ? 'itself' : `${hit?.outerHTML.slice(0, 120)} at ${r.x},${r.y}`;
      });
      expect(atItsMiddle).toBe('itself');
    }
    await banner.locator('.alert-banner-main').click();
    await expect.poll(() => banner.count()).toBe(0);
    await page
      .getByRole('complementary', { name: `${target.countryCode} ${target.name} details` })
      .waitFor({ timeout: 5_000 });
  });
});
