// @clock any-moment — prints releases it makes through the control API; the geometry checks need only the rows in view
/**
 * Issue #36 item 10 in Chromium, where layout is real: the toast of a print covers no
 * Actual, Consensus, Previous or Surprise cell of the rows in view (the row that just
 * printed included) at 1440×900, 1366×768 and 900×600; one toast per alert.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHighRelease } from '../support/releases.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The number cells in view (the grid's own viewport and the window's), with their boxes. */
const numberCellsInView = () =>
  e.page.evaluate(() => {
    const grid = document.querySelector('[role=grid]');
    const g = grid?.getBoundingClientRect();
    const cells = document.querySelectorAll<HTMLElement>(
      '[data-testid=event-row] :is([data-col=actual],[data-col=consensus],[data-col=previous],[data-col=surprise])',
    );
    return [...cells]
      .map((c) => {
        const r = c.getBoundingClientRect();
        const row = c.closest('[data-testid=event-row]') as HTMLElement;
        return {
          name: row.querySelector('[data-col=name]')?.textContent ?? '',
          col: c.dataset.col,
          box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
          shown: r.width > 0 && r.height > 0,
        };
      })
      .filter(
        (c) =>
          c.shown &&
          c.box.bottom > 0 &&
          c.box.top < window.innerHeight &&
          (!g || (c.box.bottom > g.top && c.box.top < g.bottom)),
      );
  });

const intersects = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('toasts cover no number of the rows in view', () => {
  const sizes = [
    { width: 1440, height: 900 },
    { width: 1366, height: 768 },
    { width: 900, height: 600 },
  ];
  for (const [i, size] of sizes.entries()) {
    it(`at ${size.width}×${size.height}`, async () => {
      await e.page.setViewportSize(size);
      const name = `Toast Probe ${i + 1}`;
      const made = await createHighRelease(e.simulatorUrl, 5 * 60_000, {
        name,
        consensus: 51.5,
        previous: 50.2,
      });
      const row = e.page.locator('[data-testid=event-row]').filter({ hasText: name });
      await row.waitFor({ timeout: 15_000 });
      await row.scrollIntoViewIfNeeded();
      await sim(e, 'PATCH', `/_sim/event-dates/${made.id}`, { actual: 53.25 });
      const toast = e.page.getByTestId('toast').filter({ hasText: name });
      await toast.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.locator('[data-col=actual]').textContent()).toMatch(/53\.25/);
      await row.scrollIntoViewIfNeeded();
      expect(await toast.count()).toBe(1);

      const t = (await toast.boundingBox()) as {
        x: number;
        y: number;
        width: number;
        height: number;
      };
      const toastBox = { left: t.x, top: t.y, right: t.x + t.width, bottom: t.y + t.height };
      const cells = await numberCellsInView();
      // the row that just printed is among the rows checked, with its actual
      expect(cells.some((c) => c.name.includes(name) && c.col === 'actual')).toBe(true);
      const covered = cells.filter((c) => intersects(toastBox, c.box));
      expect(covered.map((c) => `${c.name} ${c.col}`)).toEqual([]);

      await e.page.getByRole('button', { name: `Dismiss: ${made.countryCode} ${name}` }).click();
      await expect.poll(() => toast.count()).toBe(0);
    });
  }
});
