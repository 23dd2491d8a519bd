/** Accessibility checks with axe: a finding names its rule and the first offending nodes. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Serious or critical axe findings on the page as it is now, one line each. */
export async function seriousA11yViolations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} — ${v.help} (${v.nodes.length}) at ${v.nodes
          .slice(0, 2)
          .map((n) => n.html.slice(0, 160))
          .join(' | ')}`,
    );
}

export async function expectAxeClean(page: Page, where: string): Promise<void> {
  expect(await seriousA11yViolations(page, where)).toEqual([]);
}

/** The same check in the light theme and the dark one (the app's theme attribute). */
export async function expectAxeCleanBothThemes(page: Page, where: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    await expectAxeClean(page, `${where} (${theme})`);
  }
  await page.evaluate(() => document.documentElement.removeAttribute('data-theme'));
}
