// @clock 2026-12-02T14:05:00Z — a Wednesday afternoon whose demo has no HIGH release until the evening (checked below): the test's own press conference is the next
/**
 * Issue #45, the renderer half, in Chromium at 1366×768: the FOMC press conference is
 * counted down as "Next alert" (flagged "no figure"), `?` shows the keyboard help and Esc
 * hides it, and a reload on a warm cache never says "Last answer never".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsDown } from '../../src/renderer/src/components/calendar/use-upcoming.js';
import { expectNoHighAhead, highRelease } from './countdown-world.js';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
  await e.page.setViewportSize({ width: 1366, height: 768 });
});
afterAll(() => e?.close());

describe('a trader’s day four, the screen', () => {
  it('counts down to the FOMC press conference, flagged as printing no figure', async () => {
    const inMs = 120_000;
    // the world the test needs: nothing the header counts down to before it
    await expectNoHighAhead(e, inMs, countsDown);
    const conference = await highRelease(e, 'FOMC Press Conference', inMs, {
      isSpeech: true,
      consensus: null,
      previous: null,
    });
    const header = e.page.locator('.calendar-screen > header');
    const next = header.getByTestId('next-release');
    await expect
      .poll(() => next.getAttribute('data-event-id'), { timeout: 20_000 })
      .toBe(conference.id);
    expect(await next.textContent()).toMatch(
      /^Next alert: .*US FOMC Press Conference no figure in \d:\d\d$/,
    );
    expect(await next.getByTestId('figure-free').count()).toBe(1);
    expect(await header.locator('[data-countdown=high]').count()).toBe(1);
    expect(await e.page.title()).toMatch(/^US FOMC Press Conference in /);
  });

  it('shows the keyboard help on ?, and Esc hides it', async () => {
    await e.page.getByRole('grid', { name: 'Economic releases' }).focus();
    await e.page.keyboard.press('?');
    const help = e.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.count()).toBe(1);
    const box = (await help.boundingBox())!;
    // whole in the window
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    expect(await help.getByText('Watch or unwatch the release').isVisible()).toBe(true);
    await e.page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('a reload on a warm cache says when the service last answered from the first paint', async () => {
    // every "Last answer …" the status bar shows, from the page's first script on
    await e.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { lastAnswers: string[] }).lastAnswers = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid=status-bar]')?.textContent ?? '';
        const m = /Last answer (never|\d+[smh] ago)/.exec(text);
        if (m && seen.at(-1) !== m[1]) seen.push(m[1] as string);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await e.page.reload();
    await e.page.locator('[data-testid=event-row]').first().waitFor({ timeout: 20_000 });
    await e.page.getByTestId('last-answer').waitFor();
    const seen = await e.page.evaluate(
      () => (window as unknown as { lastAnswers: string[] }).lastAnswers,
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain('never');
  });
});
