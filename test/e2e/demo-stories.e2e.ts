// @clock any-moment — it makes the story it reads through the control API; the opening news only needs some stories
/**
 * The demo's invented stories in Chromium (issue #36, item 6): the reader marks a demo story
 * as invented where it is read, under an invented byline, with no link to a real site (the
 * demo once carried real analysts' names and "Read more on FXStreet" under invented text).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, startE2E, type E2E } from './harness.js';

/** The bylines the demo carried before: real FXStreet analysts. */
const REAL_ANALYSTS = ['Yohay Elam', 'Valeria Bednarik', 'Joseph Trevisani', 'Eren Sengezer'];
const MARK = 'Demo story — invented text, not market news';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const reader = () => e.page.getByTestId('post-reader');

async function open(title: string): Promise<void> {
  await e.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'News' })
    .click();
  const item = e.page.getByTestId('post-item').filter({ hasText: title });
  await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
  await item.click();
  await expect.poll(() => reader().getAttribute('aria-label')).toBe(title);
}

describe('demo stories in the reader', () => {
  it('a story printed in the demo shows the demo mark once, in view, above its invented byline', async () => {
    const title = 'Demo desk: euro steadies ahead of the euro-area flash PMI';
    await sim(e, 'POST', '/_sim/posts', {
      culture: 'en-US',
      title,
      content: '<p>EUR/USD held its range as traders waited for the survey.</p>',
    });
    await open(title);

    const mark = reader().getByTestId('demo-story');
    expect(await mark.count()).toBe(1);
    expect((await mark.textContent())?.trim()).toBe(MARK);
    expect(await mark.isVisible()).toBe(true);
    // in the reader's view, before the headline: read before the text it qualifies
    const box = (await mark.boundingBox())!;
    const headline = (await reader().getByRole('heading', { name: title }).boundingBox())!;
    expect(box.height).toBeGreaterThan(0);
    expect(box.y).toBeLessThan(headline.y);

    const byline = (await reader().locator('.byline').textContent()) ?? '';
    expect(byline).toMatch(/^\S.+ · /);
    for (const name of REAL_ANALYSTS) expect(byline).not.toContain(name);
    // no link to a real site under invented text
    expect(await reader().locator('a').count()).toBe(0);
  });

  it('the opening demo news: every story read carries the mark, no link and no real byline', async () => {
    await e.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'News' })
      .click();
    const items = e.page.getByTestId('post-item');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBeGreaterThan(3);
    for (let i = 0; i < 3; i++) {
      const title = (await items.nth(i).locator('.post-title').textContent())!.replace(
        /^Unread: /,
        '',
      );
      await items.nth(i).click();
      await expect.poll(() => reader().getAttribute('aria-label')).toBe(title.trim());
      expect(await reader().getByTestId('demo-story').count()).toBe(1);
      expect(await reader().locator('a').count()).toBe(0);
      const text = (await reader().textContent()) ?? '';
      expect(text).not.toMatch(/Read more|FXStreet/i);
      for (const name of REAL_ANALYSTS) expect(text).not.toContain(name);
      expect(text).not.toContain('Reaction in ECB');
    }
  });
});
