// @clock any-day — "today" is the day it runs: CI runs it on every moment of the clock matrix
/**
 * The calendar's "today", whatever the day: Today and Next week jump to the right day, and a
 * filter change or the end of the surprise sort go back to today. On a day with no releases
 * (a weekend, a holiday) today still has its header, the now line and a line naming the next
 * release; on a day with releases the now line sits among them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openCalendarAfresh, startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());
beforeEach(() => openCalendarAfresh(e));

/** Today as the app sees it: the UTC day (web mode runs with the system zone, UTC in CI). */
const today = () => e.page.evaluate(() => new Date().toISOString().slice(0, 10));

describe('today, whatever the day', () => {
  const topDay = () =>
    e.page.locator('#calendar-grid').evaluate((grid) => {
      const top = grid.getBoundingClientRect().top + 40;
      const days = [...grid.querySelectorAll<HTMLElement>('.day-row')];
      const visible = days.filter((d) => d.getBoundingClientRect().bottom > top);
      return visible[0]?.dataset.day ?? null;
    });

  it('opens on today: its header or the now line in view, and the quiet-day line when today has no releases', async () => {
    const day = await today();
    const start = Date.parse(`${day}T00:00:00Z`);
    const rows = await e.service.api.listEventDates({
      from: new Date(start).toISOString(),
      to: new Date(start + 86_400_000 - 1).toISOString(),
    });
    const nowLine = e.page.getByTestId('now-line');
    expect(await nowLine.count()).toBe(1);
    await expect.poll(() => nowLine.isVisible()).toBe(true);
    const quiet = e.page.getByTestId('quiet-day');
    if (rows.length === 0) {
      // a weekend or a holiday: today, not the next weekday, with what comes next
      expect(await topDay()).toBe(day);
      expect(await quiet.count()).toBe(1);
      expect(await quiet.textContent()).toMatch(
        /^No releases today( — next: [A-Z]{2} .+, (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d)?$/,
      );
    } else {
      expect(await quiet.count()).toBe(0);
    }
  });

  it('Next week and Today jump, a now line separates printed from pending', async () => {
    expect(await e.page.getByTestId('now-line').count()).toBe(1);
    await e.page.getByRole('button', { name: 'Next week' }).click();
    const monday = await e.page.evaluate(() => {
      const d = new Date();
      const wd = (d.getUTCDay() + 6) % 7;
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - wd + 7))
        .toISOString()
        .slice(0, 10);
    });
    await expect.poll(topDay).toBe(monday);
    await e.page.getByRole('button', { name: 'Today' }).click();
    await expect.poll(topDay).toBe(new Date().toISOString().slice(0, 10));
  });

  it('after a filter change the list goes back to today instead of keeping its offset', async () => {
    await e.page.getByRole('button', { name: 'Today' }).click();
    await e.page.locator('#calendar-grid').evaluate((g) => (g.scrollTop = g.scrollHeight));
    const today = new Date().toISOString().slice(0, 10);
    await expect.poll(topDay).not.toBe(today);
    await e.page.getByRole('button', { name: 'Medium', exact: true }).click();
    await expect.poll(topDay).toBe(today);
    await e.page.getByRole('button', { name: 'Medium', exact: true }).click();
  });

  it('turning the surprise sort off goes back to today instead of keeping its offset', async () => {
    const today = new Date().toISOString().slice(0, 10);
    // Today in view: its header, or (later in a busy day) the now line among today's rows.
    const showsToday = async () =>
      (await topDay()) === today ||
      (await e.page
        .getByTestId('now-line')
        .isVisible()
        .catch(() => false));
    await expect.poll(showsToday).toBe(true);
    const sort = e.page.getByRole('button', { name: 'Sort each day by surprise' });
    await sort.click();
    await e.page.locator('#calendar-grid').evaluate((g) => (g.scrollTop = 0));
    await expect.poll(topDay).not.toBe(today);
    await sort.click();
    expect(await sort.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(showsToday).toBe(true);
    expect(await e.page.getByTestId('now-line').isVisible()).toBe(true);
  });

  // Across a daylight-saving switch the local day and the now line follow the display zone.
  for (const zone of ['America/New_York', 'Europe/Berlin']) {
    it(`in ${zone}, Today shows that zone's today with the now line`, async () => {
      await e.service.api.updateSettings({ timeZone: zone });
      try {
        await e.page.goto(e.host.origin);
        await e.page.locator('[data-testid=event-row]').first().waitFor();
        const local = await e.page.evaluate(
          (z) => new Intl.DateTimeFormat('en-CA', { timeZone: z }).format(new Date()),
          zone,
        );
        await e.page.getByRole('button', { name: 'Today' }).click();
        await expect.poll(topDay).toBe(local);
        expect(await e.page.getByTestId('now-line').count()).toBe(1);
        // no day is listed twice (a 23- or 25-hour day is still one day)
        const days = await e.page
          .locator('#calendar-grid .day-row')
          .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.day));
        expect(new Set(days).size).toBe(days.length);
      } finally {
        await e.service.api.updateSettings({ timeZone: 'system' });
      }
    });
  }
});
