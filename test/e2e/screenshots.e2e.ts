/** Screenshots of each screen, light and dark, for the README (docs/screenshots/). */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './harness.js';

const OUT = resolve(import.meta.dirname, '../../docs/screenshots');

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
    const shot = async (name: string) => {
      await e.page.waitForTimeout(400);
      await e.page.screenshot({ path: `${OUT}/${name}-${scheme}.png` });
    };

    it('captures every screen', async () => {
      const dates = (await (await fetch(`${e.simulatorUrl}/_sim/event-dates`)).json()) as {
        id: string;
        actual: number | null;
        consensus: number | null;
        dateUtc: string;
      }[];
      const upcoming = dates
        .filter(
          (d) => d.actual === null && d.consensus !== null && Date.parse(d.dateUtc) > Date.now(),
        )
        .slice(0, 3);
      for (const d of upcoming) {
        await fetch(`${e.simulatorUrl}/_sim/event-dates/${d.id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ actual: (d.consensus as number) * 1.1 }),
        });
      }
      await e.page.waitForTimeout(800);
      await shot('calendar');
      await e.page.locator('[data-testid=event-row]:has([data-col=actual] .cue)').first().click();
      await e.page.getByTestId('history-chart').waitFor();
      await shot('event');
      await nav('News');
      await e.page.getByTestId('post-item').nth(1).click();
      await e.page.getByTestId('post-reader').waitFor();
      await shot('news');
      await nav('Alerts');
      await shot('alerts');
      await nav('Settings');
      await shot('settings');
      expect(true).toBe(true);
    });
  });
}
