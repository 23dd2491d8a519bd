// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Issue #16 in Chromium: small windows, time navigation, the chart, the keyboard-only path
 * and an axe scan of each state, on the demo data in web mode.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import {
  openCalendarAfresh,
  printedRow,
  showPrintedDay,
  sim,
  startE2E,
  type E2E,
} from './harness.js';
import { expectAxeClean } from './axe.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());
beforeEach(() => openCalendarAfresh(e));

/** Whether an element's text is fully shown (not clipped or ellipsed) and has some width. */
const fullyShown = (sel: string) =>
  e.page.locator(sel).evaluateAll((els) =>
    els.map((el) => {
      const h = el as HTMLElement;
      return h.offsetWidth > 0 && h.scrollWidth <= h.clientWidth + 1;
    }),
  );

/** A low-impact JPY event in billions of yen, for probes with long figures. */
const yenEvent = (name: string) =>
  sim<{ id: string }>(e, 'POST', '/_sim/events', {
    name,
    countryCode: 'JP',
    currencyCode: 'JPY',
    unit: '¥',
    potency: 'B',
    volatility: 'LOW',
  });

const openFirstPrinted = async () => {
  await showPrintedDay(e);
  await printedRow(e).click();
  await e.page.getByTestId('history-chart').waitFor();
};

describe('small windows (defect 7)', () => {
  it('at 900×600 the detail is a drawer over the grid and names and numbers stay readable', async () => {
    await e.page.setViewportSize({ width: 900, height: 600 });
    // the chips fold behind one button
    const toggle = e.page.getByRole('button', { name: /^Filters/ });
    expect(await toggle.isVisible()).toBe(true);
    expect(await e.page.getByRole('button', { name: 'High', exact: true }).isVisible()).toBe(false);
    await toggle.click();
    expect(await e.page.getByRole('button', { name: 'High', exact: true }).isVisible()).toBe(true);
    await toggle.click();
    await openFirstPrinted();
    const grid = await e.page.locator('#calendar-grid').boundingBox();
    const panel = await e.page.getByTestId('event-detail').boundingBox();
    // a drawer: the grid keeps its width, the panel lies over its right part
    expect(grid && grid.width).toBeGreaterThan(700);
    expect(panel && grid && panel.x < grid.x + grid.width).toBe(true);
    expect(
      await e.page.getByTestId('event-detail').evaluate((el) => getComputedStyle(el).position),
    ).toBe('absolute');
    await e.page.keyboard.press('Escape');
    expect((await fullyShown('[data-testid=event-row] [data-col=actual]')).every(Boolean)).toBe(
      true,
    );
    expect((await fullyShown('[data-testid=event-row] [data-col=time]')).every(Boolean)).toBe(true);
    const nameWidths = await e.page
      .locator('[data-testid=event-row] [data-col=name]')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).offsetWidth));
    expect(Math.min(...nameWidths)).toBeGreaterThan(100);
    await expectAxeClean(e.page, 'calendar 900×600');
  });

  it('at 900×600 long yen figures (¥151.234, -¥2345.678B) are shown whole, not clipped', async () => {
    const event = await yenEvent('Yen Width Probe');
    const at = Date.now() - 20 * 60_000;
    const probes: string[] = [];
    for (const [n, actual, consensus, previous] of [
      [0, -2345.678, -2101.456, -1987.654],
      [1, 151.234, 150.875, 149.912],
    ] as const) {
      const made = await sim<{ id: string }>(e, 'POST', '/_sim/event-dates', {
        eventId: event.id,
        name: 'Yen Width Probe',
        dateUtc: new Date(at + n * 60_000).toISOString(),
        unit: '¥',
        potency: n === 0 ? 'B' : 'ZERO',
        actual,
        consensus,
        previous,
      });
      probes.push(made.id);
    }
    await e.page.getByLabel('Filter events by name').fill('Yen Width Probe');
    const cells =
      '[data-testid=event-row] :is([data-col=actual], [data-col=consensus], [data-col=previous])';
    await expect.poll(() => e.page.locator(cells).count(), { timeout: 15_000 }).toBe(6);
    const actuals = await e.page
      .locator('[data-testid=event-row] [data-col=actual]')
      .allTextContents();
    expect(actuals.join(' ')).toMatch(/-¥2345\.678B.*¥151\.234/);
    // 900×600 above all (a window beside a trading platform), and the larger ones too
    for (const [width, height] of [
      [900, 600],
      [1366, 768],
      [1920, 1080],
    ] as const) {
      await e.page.setViewportSize({ width, height });
      const clipped = await e.page
        .locator(cells)
        .evaluateAll((els) =>
          els
            .filter((el) => (el as HTMLElement).scrollWidth > (el as HTMLElement).clientWidth)
            .map((el) => `${el.getAttribute('data-col')}: ${el.textContent}`),
        );
      expect(clipped, `${width}×${height}`).toEqual([]);
    }
    // the next tests see the demo week without the probe rows
    for (const id of probes) await sim(e, 'DELETE', `/_sim/event-dates/${id}`);
    await expect.poll(() => e.page.locator(cells).count(), { timeout: 15_000 }).toBe(0);
    await e.page.getByLabel('Filter events by name').fill('');
  });

  it('at 900×600 a long speech name is cut (after two lines), its "speech" tag is not', async () => {
    await e.page.setViewportSize({ width: 900, height: 600 });
    // a name that does not say "speech" itself (one that does needs no tag)
    const name = "SNB's Chairman Schlegel at the Swiss Economic Forum in Interlaken, on the franc";
    const event = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
      name,
      countryCode: 'CH',
      currencyCode: 'CHF',
      volatility: 'MEDIUM',
      isSpeech: true,
    });
    const made = await sim<{ id: string }>(e, 'POST', '/_sim/event-dates', {
      eventId: event.id,
      name,
      dateUtc: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    await e.page.getByLabel('Filter events by name').fill('Swiss Economic Forum');
    const cell = e.page.locator('[data-testid=event-row] [data-col=name]');
    await expect.poll(() => cell.count(), { timeout: 15_000 }).toBe(1);
    const shown = await cell.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const tag = (el.querySelector('.tag') as HTMLElement).getBoundingClientRect();
      const text = el.querySelector('.name-text') as HTMLElement;
      return {
        tagInside: tag.width > 20 && tag.right <= box.right + 0.5,
        // it wraps to a second line, then ends in "…" (issue #36 item 14)
        nameCut: text.scrollHeight > text.clientHeight || text.scrollWidth > text.clientWidth,
        title: el.getAttribute('title'),
      };
    });
    expect(shown).toEqual({ tagInside: true, nameCut: true, title: name });
    await sim(e, 'DELETE', `/_sim/event-dates/${made.id}`);
    await e.page.getByLabel('Filter events by name').fill('');
  });

  it('at 1400 px with the detail beside the grid, Surprise is in view and nothing is clipped', async () => {
    await e.page.setViewportSize({ width: 1400, height: 900 });
    await openFirstPrinted();
    const grid = (await e.page.locator('#calendar-grid').boundingBox())!;
    // Surprise matters more than Previous (issue #36 item 14): Previous may give way, not Surprise
    const surprise = (await e.page.locator('.grid-head [data-col=surprise]').boundingBox())!;
    expect(surprise.x + surprise.width).toBeLessThanOrEqual(grid.x + grid.width);
    for (const col of ['actual', 'consensus', 'surprise'])
      expect(
        (await fullyShown(`[data-testid=event-row] [data-col=${col}]`)).every(Boolean),
        col,
      ).toBe(true);
    // Previous: left out whole or shown whole, never cut
    const previousCut = await e.page
      .locator('[data-testid=event-row] [data-col=previous]')
      .evaluateAll((els) =>
        els.filter((el) => (el as HTMLElement).scrollWidth > (el as HTMLElement).clientWidth + 1),
      );
    expect(previousCut).toHaveLength(0);
    await expectAxeClean(e.page, 'calendar 1400 with detail');
  });
});

describe('moving through time (defect 6)', () => {
  it('finds releases by their abbreviations: "US CPI", "US PMI"…', async () => {
    // the first abbreviation the demo week holds (the schedule decides which print falls in it)
    const dates = await sim<EventDate[]>(e, 'GET', '/_sim/event-dates');
    const [query] = (
      [
        ['US CPI', /Consumer Price/],
        ['US PMI', /PMI/],
        ['US GDP', /Gross Domestic Product/],
        ['US NFP', /Nonfarm Payrolls/],
      ] as const
    ).find(([, re]) => dates.some((d) => d.countryCode === 'US' && re.test(d.name))) ?? ['?'];
    await e.page.getByLabel('Filter events by name').fill(query);
    await expect
      .poll(async () =>
        [
          ...new Set(
            await e.page.locator('[data-testid=event-row] [data-col=country]').allTextContents(),
          ),
        ].join(),
      )
      .toBe('US');
    const names = await e.page.locator('[data-testid=event-row] [data-col=name]').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => /Consumer Price|CPI|PMI|Gross Domestic|Nonfarm/.test(n))).toBe(true);
    await e.page.getByLabel('Filter events by name').fill('');
  });
});

describe('history chart (defect 9)', () => {
  it('shows values on hover, readable axis text, dated ticks and a legend clear of the points', async () => {
    await openFirstPrinted();
    const chart = e.page.getByTestId('history-chart');
    const sizes = await chart
      .locator('text.axis')
      .evaluateAll((els) => els.map((t) => t.getBoundingClientRect().height));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
    expect(await chart.locator('text.axis').count()).toBeGreaterThanOrEqual(3 + 4 + 2);
    const legend = (await chart.locator('.legend').boundingBox())!;
    const points = await chart
      .locator('circle')
      .evaluateAll((els) => els.map((c) => c.getBoundingClientRect()));
    for (const p of points)
      expect(
        p.x > legend.x + legend.width ||
          p.x + p.width < legend.x ||
          p.y > legend.y + legend.height ||
          p.y + p.height < legend.y,
      ).toBe(true);
    const last = points.at(-1)!;
    await e.page.mouse.move(last.x + last.width / 2, last.y + last.height / 2 + 4);
    expect(await e.page.getByTestId('chart-tooltip').textContent()).toMatch(
      /^\d{1,2} \w{3,4} \d{4}: .+/,
    );
    await expectAxeClean(e.page, 'event detail');
  });

  it('keeps a long negative axis label whole ("-¥500.0B", not "¥500.0B")', async () => {
    const event = await yenEvent('Axis Width Probe');
    const made: string[] = [];
    for (const [n, actual] of [-353.9, 120.5, 999.0].entries()) {
      const ed = await sim<{ id: string }>(e, 'POST', '/_sim/event-dates', {
        eventId: event.id,
        name: 'Axis Width Probe',
        dateUtc: new Date(Date.now() - (3 - n) * 3_600_000).toISOString(),
        unit: '¥',
        potency: 'B',
        actual,
        consensus: actual - 10,
      });
      made.push(ed.id);
    }
    await e.page.getByLabel('Filter events by name').fill('Axis Width Probe');
    await expect
      .poll(() => e.page.locator('[data-testid=event-row]').count(), { timeout: 15_000 })
      .toBe(3);
    await e.page.locator('[data-testid=event-row]').last().click();
    const chart = e.page.getByTestId('history-chart');
    await chart.waitFor();
    const labels = await chart.evaluate((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text.axis')]
        .filter((t) => /\d/.test(t.textContent ?? '') && !/\w{3} \d\d/.test(t.textContent ?? ''))
        .map((t) => ({ text: t.textContent, inside: t.getBoundingClientRect().left >= box.left }));
    });
    // The axis runs on round ticks from below the lowest value (-¥363.9B): -¥500.0B.
    expect(labels.map((l) => l.text)).toContain('-¥500.0B');
    expect(labels.filter((l) => !l.inside)).toEqual([]);
    await e.page.keyboard.press('Escape');
    for (const id of made) await sim(e, 'DELETE', `/_sim/event-dates/${id}`);
    await e.page.getByLabel('Filter events by name').fill('');
  });
});

describe('keyboard only (defect 10)', () => {
  it('skip link, rows, detail, Escape, watch, filter and News, without a mouse', async () => {
    await e.page.keyboard.press('Tab');
    expect(await e.page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Skip to content',
    );
    await e.page.keyboard.press('Enter');
    expect(await e.page.evaluate(() => document.activeElement?.id)).toBe('calendar-grid');
    await e.page.keyboard.press('j');
    await e.page.keyboard.press('ArrowDown');
    await e.page.keyboard.press('k');
    const selected = e.page.locator('[data-testid=event-row][aria-selected=true]');
    const name = (await selected.locator('[data-col=name]').textContent()) ?? '';
    await e.page.keyboard.press('Enter');
    await e.page.getByTestId('event-detail').waitFor();
    // focus moved into the detail
    expect(
      await e.page.evaluate(() => !!document.activeElement?.closest('[data-testid=event-detail]')),
    ).toBe(true);
    expect(await e.page.getByTestId('event-detail').locator('h2').textContent()).toContain(
      name.replace(/(speech|tentative)$/, ''),
    );
    await e.page.keyboard.press('Escape');
    expect(await e.page.getByTestId('event-detail').count()).toBe(0);
    expect(await e.page.evaluate(() => document.activeElement?.id)).toBe('calendar-grid');
    // w watches the focused row
    await e.page.keyboard.press('w');
    await expect.poll(() => selected.getAttribute('data-watched')).toBe('true');
    await e.page.keyboard.press('w');
    await expect.poll(() => selected.getAttribute('data-watched')).toBeNull();
    await e.page.keyboard.press('/');
    expect(await e.page.evaluate(() => document.activeElement?.id)).toBe('calendar-text-filter');
    // to News through the navigation, then j/k in the list
    await e.page.keyboard.press('Shift+Tab');
    let guard = 0;
    while (
      guard++ < 40 &&
      !(await e.page.evaluate(
        () =>
          !!document.activeElement?.closest('nav') &&
          !!document.activeElement.textContent?.includes('News'),
      ))
    )
      await e.page.keyboard.press('Shift+Tab');
    await e.page.keyboard.press('Enter');
    await e.page.getByTestId('post-item').first().waitFor();
    // back to the skip link (the first tab stop), then into the list
    guard = 0;
    while (
      guard++ < 10 &&
      !(await e.page.evaluate(() => document.activeElement?.classList.contains('skip-link')))
    )
      await e.page.keyboard.press('Shift+Tab');
    await e.page.keyboard.press('Enter');
    // which story is selected: its position in the list (titles may repeat)
    const selectedAt = () =>
      e.page
        .getByTestId('post-item')
        .evaluateAll((els) => els.findIndex((el) => el.classList.contains('selected')));
    await e.page.keyboard.press('j');
    await e.page.getByTestId('post-reader').waitFor();
    await expect.poll(selectedAt).toBe(0);
    await e.page.keyboard.press('j');
    await expect.poll(selectedAt).toBe(1);
    await e.page.keyboard.press('ArrowDown');
    await expect.poll(selectedAt).toBe(2);
    await e.page.keyboard.press('k');
    await expect.poll(selectedAt).toBe(1);
    await expectAxeClean(e.page, 'news');
  });
});
