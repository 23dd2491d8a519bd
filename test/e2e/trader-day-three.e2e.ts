// @clock any-moment — makes the releases it counts down to through the control API; the grid checks need only some rows
/**
 * Issue #36 in Chromium, where layout is real: the status bar on page load, the title's
 * countdown, PageDown/PageUp and the active row after the detail closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHighRelease } from '../support/releases.js';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const grid = () => e.page.getByRole('grid', { name: 'Economic releases' });
/** The row the grid's aria-activedescendant names: its aria-rowindex, or why there is none. */
const activeRow = () =>
  grid().evaluate((g) => {
    const id = g.getAttribute('aria-activedescendant');
    if (!id) return 'no active row';
    const row = document.getElementById(id);
    if (!row) return `${id} names no element`;
    const a = g.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    return {
      index: Number(row.getAttribute('aria-rowindex')),
      inView: r.top >= a.top && r.bottom <= a.bottom + 1,
    };
  });

describe('the status bar on page load (item 8)', () => {
  it('goes from “Connecting…” to Live, never through a red “Offline”', async () => {
    // every label the status bar shows, from the first one on
    await e.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { labels: string[] }).labels = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid=connection-label]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await e.page.reload();
    await e.page.getByTestId('connection-label').filter({ hasText: /^Live/ }).waitFor();
    const labels = await e.page.evaluate(() => (window as unknown as { labels: string[] }).labels);
    expect(labels[0]).toBe('Connecting…');
    expect(labels.filter((l) => /Offline/.test(l))).toEqual([]);
  });
});

describe('the window title counts down (item 9)', () => {
  it('to the next high-impact release with a figure', async () => {
    await createHighRelease(e.simulatorUrl, 90_000, { name: 'Test Payrolls' });
    await e.page.reload();
    // the truth from the app's own cache: the earliest pending HIGH release with a figure
    const now = Date.now();
    const ahead = await e.service.api.listEventDates({
      from: new Date(now).toISOString(),
      to: new Date(now + 86_400_000).toISOString(),
      volatilities: ['HIGH'],
    });
    const next = ahead.find(
      (r) =>
        r.actual === null &&
        !r.isAllDay &&
        Date.parse(r.dateUtc) > now + 5_000 &&
        (r.consensus !== null || r.previous !== null),
    );
    expect(next).toBeDefined();
    // names carry regex characters ("CPI (MoM)")
    const named = `${next?.countryCode} ${next?.name}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect
      .poll(() => e.page.title(), { timeout: 15_000 })
      .toMatch(new RegExp(`^${named} in \\d+[mh] \\d\\d[sm] · Macrobell$`));
  });
});

describe('the grid by keyboard (item 13)', () => {
  it('PageDown and PageUp move the active row a screenful, in view', async () => {
    await grid().focus();
    await e.page.keyboard.press('Home');
    const first = await activeRow();
    expect(first).toMatchObject({ inView: true });
    const page = await grid().evaluate((g) => Math.floor(g.clientHeight / 38) - 1);
    await e.page.keyboard.press('PageDown');
    const down = await activeRow();
    expect(down).toMatchObject({ inView: true });
    const step = (down as { index: number }).index - (first as { index: number }).index;
    // a screenful, one or two more when it lands on a day header or the now line
    expect(step).toBeGreaterThanOrEqual(page);
    expect(step).toBeLessThanOrEqual(page + 2);
    await e.page.keyboard.press('PageUp');
    // A screenful back: to the first row, or as far past it as PageDown went past a screenful
    // (a day header or the now line it stepped over; seen at 31 December, 23:55 UTC).
    const up = (await activeRow()) as { index: number; inView: boolean };
    const firstIndex = (first as { index: number }).index;
    expect(up).toMatchObject({ inView: true });
    expect(up.index).toBeGreaterThanOrEqual(firstIndex);
    expect(up.index).toBeLessThanOrEqual(firstIndex + step - page);
  });

  it('after Escape closes the detail, the active row is an element, even scrolled away', async () => {
    await grid().focus();
    await e.page.keyboard.press('Home');
    await e.page.keyboard.press('j');
    await e.page.keyboard.press('Enter');
    await e.page.getByTestId('event-detail').waitFor();
    // the grid scrolled far from the row while the detail is open
    await grid().evaluate((g) => (g.scrollTop = g.scrollHeight));
    await e.page.keyboard.press('Escape');
    await expect.poll(() => e.page.getByTestId('event-detail').count()).toBe(0);
    await expect.poll(activeRow).toMatchObject({ inView: true });
    expect(await e.page.evaluate(() => document.activeElement?.id)).toBe('calendar-grid');
  });
});
