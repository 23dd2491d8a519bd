// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Issue #26's defects in Chromium, on the demo in web mode: each as a trader would notice it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, startE2E, type E2E } from './harness.js';
import { seriousA11yViolations } from './axe.js';

interface SimDate {
  id: string;
  actual: number | null;
  consensus: number | null;
  dateUtc: string;
}

/** Print the next release with a consensus, so an alert lands in the history (unread). */
async function printOne(e: E2E): Promise<void> {
  await e.service.api.setAlertRules({
    ...(await e.service.api.getAlertRules()),
    minVolatility: 'LOW',
  });
  const dates = await sim<SimDate[]>(e, 'GET', '/_sim/event-dates');
  const next = dates.find(
    (d) => d.actual === null && d.consensus !== null && Date.parse(d.dateUtc) > Date.now(),
  ) as SimDate;
  await sim(e, 'PATCH', `/_sim/event-dates/${next.id}`, { actual: (next.consensus as number) + 1 });
}

/** WCAG contrast of an element's text colour on its own background (both opaque rgb). */
function contrastOf(el: Element): number {
  const style = getComputedStyle(el);
  const lum = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(style.color), lum(style.backgroundColor)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (hi + 0.05) / (lo + 0.05);
}

for (const scheme of ['light', 'dark'] as const) {
  describe(`the Alerts unread badge (${scheme}, defect 8)`, () => {
    let e: E2E;
    beforeAll(async () => {
      e = await startE2E({ colorScheme: scheme });
    });
    afterAll(() => e?.close());

    it('is readable: axe finds no serious violation with unread alerts', async () => {
      await printOne(e);
      const badge = e.page
        .getByRole('navigation', { name: 'Main' })
        .locator('.badge:not(.news-badge)');
      await badge.first().waitFor({ timeout: 15_000 });
      expect(await badge.first().evaluate(contrastOf)).toBeGreaterThanOrEqual(4.5);
      expect(await seriousA11yViolations(e.page, `unread badge (${scheme})`)).toEqual([]);
    });
  });
}
