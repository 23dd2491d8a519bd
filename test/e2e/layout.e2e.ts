// @clock any-moment — makes the printed release it reads through the control API; the bounding-box checks hold for whatever demo rows are in view
/**
 * Issue #36 item 14 in Chromium, where layout is real. At 1920×1080, 1366×768 with the
 * detail open and 900×600, the columns a trader reads at the print (Time, Event, Actual,
 * Consensus, Surprise, Watch) of every row in view are inside the window, uncovered and
 * not cut, Previous too at 1920 and at 1366 with the detail open, and the Watch header is
 * in view (#45); a long name wraps and shows whole on the focused row; the "Demo data" badge
 * stays on one line. The 12-hour clock reads "AM"/"PM" in the grid and the detail alike,
 * and a settings checkbox ticks before the host has answered.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;
const LONG_NAME = 'Average Earnings Including Bonus (3Mo/Yr)';
let made: EventDate;

beforeAll(async () => {
  e = await startE2E();
  // A print of its own, so a long name with every figure is there whatever the demo holds.
  const event = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
    name: LONG_NAME,
    countryCode: 'UK',
    currencyCode: 'GBP',
    unit: '%',
    potency: 'ZERO',
    volatility: 'MEDIUM',
  });
  made = await sim<EventDate>(e, 'POST', '/_sim/event-dates', {
    eventId: event.id,
    name: LONG_NAME,
    dateUtc: new Date(Date.now() - 10 * 60_000).toISOString(),
    unit: '%',
    potency: 'ZERO',
    volatility: 'MEDIUM',
    isAllDay: false,
    actual: 5.2,
    consensus: 4.9,
    previous: 5,
  });
});
afterAll(() => e?.close());

const IMPORTANT = ['time', 'name', 'actual', 'consensus', 'surprise', 'watch'] as const;

interface CellProblem {
  row: string;
  col: string;
  problem: string;
}

/**
 * Every important cell of every row in the grid's view: shown, inside the window and the
 * grid's visible box, the topmost element at its centre (no panel or drawer over it), and
 * its figures not cut (no "…", nothing scrolled out of the cell).
 */
function importantCellProblems(
  page: Page,
  columns: readonly string[] = IMPORTANT,
): Promise<CellProblem[]> {
  return page.evaluate(
    (cols) => {
      const grid = document.querySelector('[role=grid]') as HTMLElement;
      const g = grid.getBoundingClientRect();
      // the grid's visible box: inside its border, left of its scrollbar, below its header
      const head = (grid.querySelector('.grid-head') as HTMLElement).getBoundingClientRect();
      const box = {
        left: g.left + grid.clientLeft,
        right: g.left + grid.clientLeft + grid.clientWidth,
        top: head.bottom,
        bottom: g.top + grid.clientTop + grid.clientHeight,
      };
      const problems: { row: string; col: string; problem: string }[] = [];
      const rows = [...grid.querySelectorAll<HTMLElement>('[data-testid=event-row]')].filter(
        (r) => {
          const b = r.getBoundingClientRect();
          return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
        },
      );
      if (rows.length === 0) problems.push({ row: '-', col: '-', problem: 'no row in view' });
      for (const r of rows) {
        const name = r.querySelector('[data-col=name]')?.getAttribute('title') ?? r.id;
        for (const col of cols) {
          const cell = r.querySelector<HTMLElement>(`[data-col=${col}]`);
          const say = (problem: string) => problems.push({ row: name, col, problem });
          if (!cell) {
            say('no cell');
            continue;
          }
          const c = cell.getBoundingClientRect();
          if (c.width === 0 || getComputedStyle(cell).display === 'none') {
            say('hidden');
            continue;
          }
          if (c.left < box.left - 0.5 || c.right > box.right + 0.5 || c.right > innerWidth)
            say(`outside the grid's view (${Math.round(c.left)}–${Math.round(c.right)})`);
          const x = Math.min(c.left + c.width / 2, innerWidth - 1);
          const y = c.top + c.height / 2;
          const top = document.elementFromPoint(x, y);
          if (!top || !(cell === top || cell.contains(top) || r.contains(top)))
            say(`covered by ${top?.className || top?.tagName}`);
          // the name may wrap (and the title give it whole); figures must fit
          if (col !== 'name' && cell.scrollWidth > cell.clientWidth + 1)
            say(`cut: ${cell.scrollWidth} px of text in ${cell.clientWidth} px`);
        }
      }
      return problems;
    },
    [...columns],
  );
}

/** The lines the badge's text is laid out on (1 when it does not wrap), and whether it fits. */
function badgeLayout(page: Page) {
  return page.getByTestId('demo-badge').evaluate((badge) => {
    const range = document.createRange();
    range.selectNodeContents(badge);
    const tops = new Set(
      [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
    );
    const b = badge.getBoundingClientRect();
    const bar = (badge.parentElement as HTMLElement).getBoundingClientRect();
    return {
      lines: tops.size,
      fits: badge.scrollWidth <= badge.clientWidth + 1 && b.right <= bar.right + 0.5,
    };
  });
}

async function showSize(width: number, height: number) {
  await e.page.setViewportSize({ width, height });
  // the layout after the resize (two frames: the container queries, then the virtual rows)
  await e.page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}

/** Each size, whether the detail is open, and the columns it shows beyond the important ones. */
const SIZES: [number, number, boolean, string[]][] = [
  [1920, 1080, false, ['previous']],
  // a laptop with the detail open keeps Previous too (#45)
  [1366, 768, true, ['previous']],
  [900, 600, false, []],
];

/** A column header's own text as laid out: its width, and whether it lies inside the header. */
function headerText(page: Page, col: string) {
  return page.locator(`.grid-head [data-col=${col}]`).evaluate((head) => {
    const range = document.createRange();
    range.selectNodeContents(head);
    const t = range.getBoundingClientRect();
    const h = head.getBoundingClientRect();
    return {
      text: (head as HTMLElement).innerText.trim(),
      width: Math.round(t.width),
      inside: t.left >= h.left - 0.5 && t.right <= h.right + 0.5,
    };
  });
}

describe('the calendar at a trader’s window sizes', () => {
  it.each(SIZES)(
    'at %i×%i (detail open: %s) the important columns of every row in view are whole',
    async (width, height, detail, more) => {
      await showSize(width, height);
      const grid = e.page.getByRole('grid', { name: 'Economic releases' });
      if (detail) {
        await e.page.locator('[data-testid=event-row]').first().click();
        await e.page.locator('.detail-panel').waitFor();
        await showSize(width, height);
        // beside the grid, not over it
        const panel = await e.page.locator('.detail-panel').boundingBox();
        const g = await grid.boundingBox();
        expect(panel && g && panel.x >= g.x + g.width).toBe(true);
      }
      try {
        expect(await importantCellProblems(e.page, [...IMPORTANT, ...more])).toEqual([]);
        // every important column has its header in view
        for (const col of [...IMPORTANT, ...more]) {
          const h = await grid.locator(`.grid-head [data-col=${col}]`).boundingBox();
          expect(h && h.width > 0 && h.x + h.width <= width, `${col} header`).toBe(true);
        }
        // the Watch column says what it is, in view (not only to a screen reader)
        const watch = await headerText(e.page, 'watch');
        expect(watch.text.toLowerCase()).toBe('watch');
        expect(watch.width).toBeGreaterThan(20);
        expect(watch.inside).toBe(true);
        expect(await badgeLayout(e.page)).toEqual({ lines: 1, fits: true });
      } finally {
        if (detail) await e.page.getByRole('button', { name: 'Close details (Escape)' }).click();
      }
    },
  );

  it('a long name wraps in a narrow grid, and the focused row shows it whole', async () => {
    await showSize(1366, 768);
    await e.page.getByLabel('Filter events by name').fill('Average Earnings Including');
    const row = e.page.locator(`[data-event-date-id="${made.id}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await e.page.locator('.detail-panel').waitFor();
    const name = row.locator('.name-text');
    const shown = () =>
      name.evaluate((el) => ({
        text: el.textContent,
        whole: el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1,
        lines: Math.round(
          el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
        ),
      }));
    // the focused (clicked) row: the name whole, on as many lines as it takes
    const focused = await shown();
    expect(focused.text).toBe(LONG_NAME);
    expect(focused.whole).toBe(true);
    expect(await row.locator('[data-col=name]').getAttribute('title')).toBe(LONG_NAME);
    expect(await importantCellProblems(e.page)).toEqual([]);
    await e.page.getByRole('button', { name: 'Close details (Escape)' }).click();
    await e.page.getByLabel('Filter events by name').fill('');
  });
});

describe('the 12-hour clock (item 14)', () => {
  it('reads “AM”/“PM” in the grid and in the detail alike', async () => {
    await showSize(1920, 1080);
    await e.service.api.updateSettings({ hourCycle: 'h12' });
    const time = e.page.locator('[data-testid=event-row] [data-col=time]');
    await expect
      .poll(() => time.allTextContents())
      .toContainEqual(expect.stringMatching(/ [AP]M$/));
    await e.page.getByLabel('Filter events by name').fill('Average Earnings Including');
    const row = e.page.locator(`[data-event-date-id="${made.id}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const detail = e.page.locator('.detail-panel');
    await detail
      .getByText(/ [AP]M\b/)
      .first()
      .waitFor({ timeout: 15_000 });
    expect(await detail.textContent()).not.toMatch(/\d (am|pm)\b/);
    await e.page.getByRole('button', { name: 'Close details (Escape)' }).click();
    await e.page.getByLabel('Filter events by name').fill('');
    await e.service.api.updateSettings({ hourCycle: 'h23' });
  });
});

describe('a settings checkbox (item 14)', () => {
  it('ticks on the click, while the host’s answer is still on its way', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await e.page.route('**/api/updateSettings', hold);
    try {
      await e.page.getByRole('button', { name: 'Settings' }).click();
      const box = e.page.getByRole('checkbox', { name: 'Load remote images in news' });
      const before = await box.isChecked();
      await box.click();
      // the request is held: what the box shows is the click, not the host's answer
      expect(await box.isChecked()).toBe(!before);
      expect((await e.service.api.getSettings()).allowRemoteImages).toBe(before);
      release?.();
      await expect
        .poll(async () => (await e.service.api.getSettings()).allowRemoteImages)
        .toBe(!before);
      expect(await box.isChecked()).toBe(!before);
    } finally {
      release?.();
      await e.page.unroute('**/api/updateSettings', hold);
      await e.page.getByRole('button', { name: 'Calendar' }).click();
    }
  });
});
