// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Screenshots of each screen, light and dark. `npm run screenshots` writes them to
 * docs/screenshots/ for the README; in `npm test` they go to a temporary folder, so a test
 * run never rewrites tracked files. Each screen (not each window size) is also scanned with axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedRow, showPrintedDay, startE2E, type E2E } from './harness.js';

const OUT =
  process.env.MACROBELL_SCREENSHOTS === 'docs'
    ? resolve(import.meta.dirname, '../../docs/screenshots')
    : mkdtempSync(join(tmpdir(), 'macrobell-screenshots-'));

for (const scheme of ['light', 'dark'] as const) {
  describe(`screenshots (${scheme})`, () => {
    let e: E2E;
    beforeAll(async () => {
      mkdirSync(OUT, { recursive: true });
      e = await startE2E({ colorScheme: scheme });
      // a few alerts in the history, so the Alerts screen shows what a trader sees
      await e.service.api.setAlertRules({
        ...(await e.service.api.getAlertRules()),
        minVolatility: 'LOW',
      });
    });
    afterAll(() => e?.close());
    const nav = (name: string) =>
      e.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: new RegExp(`^${name}`) })
        .click();
    /** Close the alert toasts, so they cover no part of the screen being shown. */
    const dismissToasts = async () => {
      const close = e.page.locator('[data-testid=toast] .toast-close');
      while ((await close.count()) > 0) await close.first().click();
    };
    const shot = async (name: string, scan = true) => {
      await dismissToasts();
      // Let pending renders and transitions settle (two animation frames), then capture.
      await e.page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
      );
      const path = `${OUT}/${name}-${scheme}.png`;
      await e.page.screenshot({ path, animations: 'disabled' });
      const png = readFileSync(path);
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(png.length).toBeGreaterThan(10_000); // a blank page compresses far smaller
      // every screen shown in the README is readable in both themes (axe: nothing serious)
      if (!scan) return;
      const result = await new AxeBuilder({ page: e.page }).analyze();
      const serious = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`);
      expect.soft(serious, `axe on ${name} (${scheme})`).toEqual([]);
    };

    it('captures every screen', { timeout: 300_000 }, async () => {
      const dates = (await (await fetch(`${e.simulatorUrl}/_sim/event-dates`)).json()) as {
        id: string;
        eventId: string;
        name: string;
        actual: number | null;
        consensus: number | null;
        previous: number | null;
        dateUtc: string;
      }[];
      // Three releases that print "just now", so the rows above the now line, the alerts and
      // the news show fresh prints: the next three (not rate decisions, whose steps a made-up
      // print would get wrong) take a slot a few minutes ago, each a little above consensus
      // at the consensus's own precision. Deleted and made again rather than moved, so the
      // alerts say "printed", not "rescheduled".
      const upcoming = dates
        .filter(
          (d) =>
            d.actual === null &&
            d.consensus !== null &&
            Date.parse(d.dateUtc) > Date.now() &&
            !/Rate Decision|Refinancing|Loan Prime/.test(d.name),
        )
        .slice(0, 3);
      const call = (path: string, method: string, body?: unknown) =>
        fetch(`${e.simulatorUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ id: string; dateUtc: string }>);
      const printed: { id: string; dateUtc: string }[] = [];
      for (const [n, d] of upcoming.entries()) {
        const c = d.consensus as number;
        const decimals = (String(c).split('.')[1] ?? '').length;
        const actual = Number(
          (c + Math.max(10 ** -decimals, Math.abs(c) * 0.02)).toFixed(decimals),
        );
        const minute = Math.floor(Date.now() / 60_000) * 60_000;
        await call(`/_sim/event-dates/${d.id}`, 'DELETE');
        printed.push(
          await call('/_sim/event-dates', 'POST', {
            eventId: d.eventId,
            dateUtc: new Date(minute - (3 - n) * 60_000).toISOString(),
            consensus: c,
            previous: d.previous,
            actual,
          }),
        );
      }
      // The releases arrive by webhook; wait until the app has stored them (the page is pushed
      // the same change; the rows may sit outside the virtualised viewport).
      for (const d of printed) {
        const at = Date.parse(d.dateUtc);
        await expect
          .poll(
            async () =>
              (
                await e.service.api.listEventDates({
                  from: new Date(at - 60_000).toISOString(),
                  to: new Date(at + 60_000).toISOString(),
                })
              ).find((x) => x.id === d.id)?.actual ?? null,
            { timeout: 15_000 },
          )
          .not.toBeNull();
      }
      await shot('calendar');
      await printedRow(e).click();
      await e.page.getByTestId('history-chart').waitFor();
      await shot('event');
      await nav('News');
      await e.page.getByTestId('post-item').nth(1).click();
      await e.page.getByTestId('post-reader').waitFor();
      await shot('news');
      await nav('Alerts');
      await e.page.getByRole('form', { name: 'Alert rules' }).waitFor();
      await shot('alerts');
      await nav('Settings');
      await e.page.getByTestId('credentials-state').waitFor();
      await shot('settings');
    });

    it(
      'opens the calendar with now in view at 1920×1080, 1366×768 and 900×600',
      {
        timeout: 180_000,
      },
      async () => {
        await nav('Calendar');
        for (const [width, height] of [
          [1920, 1080],
          [1366, 768],
          [900, 600],
        ] as const) {
          await e.page.setViewportSize({ width, height });
          await e.page.reload();
          await e.page.locator('[data-testid=event-row]').first().waitFor();
          // The now line (when the day has one) opens inside the grid's visible part.
          const line = e.page.getByTestId('now-line');
          if ((await line.count()) > 0) {
            const grid = await e.page.locator('.grid').first().boundingBox();
            const box = await line.boundingBox();
            expect(
              box && grid && box.y >= grid.y && box.y + box.height <= grid.y + grid.height,
            ).toBe(true);
          }
          await shot(`calendar-${width}x${height}`, false); // the calendar screen: scanned above
        }
      },
    );
  });
}

/** The views issue #16 asked to see: small window, New York 12 h, week navigation, surprises. */
describe('screenshots (calendar views)', () => {
  let e: E2E;
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    e = await startE2E({ colorScheme: 'light' });
  });
  afterAll(() => e?.close());
  const shot = async (name: string) => {
    await e.page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const path = `${OUT}/${name}.png`;
    await e.page.screenshot({ path, animations: 'disabled' });
    expect(readFileSync(path).length).toBeGreaterThan(10_000);
  };
  it('captures the small window, New York 12 h, the week navigation and the surprise view', async () => {
    await e.page.setViewportSize({ width: 900, height: 600 });
    await showPrintedDay(e);
    await printedRow(e).click();
    await e.page.getByTestId('history-chart').waitFor();
    await shot('calendar-900x600-detail');
    await e.page.keyboard.press('Escape');

    await e.page.setViewportSize({ width: 1440, height: 900 });
    await e.service.api.updateSettings({ timeZone: 'America/New_York', hourCycle: 'h12' });
    await e.page.reload();
    await e.page.getByTestId('zone-label').filter({ hasText: 'New York' }).waitFor();
    await shot('calendar-new-york-12h');

    await e.page.getByRole('button', { name: 'Next week' }).click();
    await e.page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    await shot('calendar-next-week');

    await e.page.getByRole('button', { name: 'Today' }).click();
    await e.page.getByRole('button', { name: 'Sort each day by surprise' }).click();
    await e.page.setViewportSize({ width: 1720, height: 960 });
    await showPrintedDay(e);
    await printedRow(e).click();
    await e.page.getByTestId('surprise-summary').scrollIntoViewIfNeeded();
    await shot('calendar-surprise');
  });
});
