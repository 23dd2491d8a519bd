// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * News windows in Chromium (web mode): turned on in Settings, the calendar shades exactly
 * the releases inside a window (N minutes either side of each covered release).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { newsWindows, inNewsWindow } from '../../src/shared/news-windows.js';
import { startE2E, type E2E } from './harness.js';
import { expectAxeCleanBothThemes } from './axe.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const nav = (name: string) =>
  e.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

/** The rendered rows: id and whether each is shaded (class and the hatching really drawn). */
const renderedRows = () =>
  e.page.$$eval('[data-testid=event-row]', (rows) =>
    rows.map((r) => ({
      id: r.getAttribute('data-event-date-id') as string,
      shaded: r.classList.contains('news-window'),
      hatched: getComputedStyle(r).backgroundImage.includes('repeating-linear-gradient'),
    })),
  );

describe('news windows', () => {
  it('shades exactly the releases inside a window, once turned on in Settings', async () => {
    expect((await renderedRows()).some((r) => r.shaded)).toBe(false); // off by default

    await nav('Settings');
    const card = e.page.getByRole('region', { name: 'News windows' });
    // The box follows the saved settings (a round trip), so click and wait for it.
    const show = card.getByRole('checkbox', { name: 'Show news windows' });
    await show.click();
    await expect.poll(() => show.isChecked()).toBe(true);
    // wide windows, so some are in view wherever the calendar opens
    await card.getByRole('spinbutton', { name: 'Minutes before' }).fill('90');
    await card.getByRole('spinbutton', { name: 'Minutes after' }).fill('30');
    await expect
      .poll(async () => (await e.service.api.getSettings()).newsWindow)
      .toMatchObject({ enabled: true, minutesBefore: 90, minutesAfter: 30, impacts: ['HIGH'] });
    await nav('Calendar');
    await e.page.locator('[data-testid=event-row]').first().waitFor();

    const settings = (await e.service.api.getSettings()).newsWindow;
    const dates = await e.service.api.listEventDates({
      from: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      to: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    const byId = new Map(dates.map((d) => [d.id, d] as [string, EventDate]));
    const windows = newsWindows(dates, settings);
    const inside = (id: string) => {
      const d = byId.get(id) as EventDate;
      return !d.isAllDay && inNewsWindow(windows, Date.parse(d.dateUtc));
    };
    // the page re-renders with the new settings: wait for it, then compare row by row
    await expect
      .poll(async () => (await renderedRows()).every((r) => r.shaded === inside(r.id)))
      .toBe(true);
    const rows = await renderedRows();
    expect(rows.map((r) => r.shaded)).toEqual(rows.map((r) => inside(r.id)));
    expect(rows.filter((r) => r.shaded).every((r) => r.hatched)).toBe(true);
    expect(rows.filter((r) => r.shaded).length).toBeGreaterThan(0);
    expect(rows.filter((r) => !r.shaded).length).toBeGreaterThan(0);
    await e.page
      .screenshot({ path: process.env.NEWS_WINDOW_SHOT ?? '/dev/null' })
      .catch(() => undefined);
  });

  it('stays axe clean in both themes, shaded and in Settings', async () => {
    await expectAxeCleanBothThemes(e.page, 'the calendar with news windows shaded');
    await nav('Settings');
    await expectAxeCleanBothThemes(e.page, 'Settings with the news-window and squawk cards');
  }, 180_000);
});
