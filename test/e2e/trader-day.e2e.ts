/**
 * Issue #26's defects in Chromium, on the demo in web mode: each as a trader would notice it.
 */
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, startE2E, type E2E } from './harness.js';

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

async function seriousViolations(e: E2E): Promise<string[]> {
  const result = await new AxeBuilder({ page: e.page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
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
      expect(await seriousViolations(e)).toEqual([]);
    });
  });
}
