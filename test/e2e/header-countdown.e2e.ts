// @clock 2026-12-02T14:05:00Z — a Wednesday afternoon whose demo has no HIGH release until the evening (checked below): the test's own release is the next
/**
 * Issue #36 item 9 in Chromium: the calendar header counts down, live, to the next
 * high-impact release with a figure ("Next alert: US Probe Payrolls in 1:29" when the rules
 * cover it, else "Next HIGH: …"; m:ss in the last hour), skipping a speech that prints
 * nothing, and while a news window is open to its close ("News window open — closes in
 * 3:12"). One countdown of each, never two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasFigure } from '../../src/renderer/src/components/calendar/use-upcoming.js';
import { expectNoHighAhead, highRelease } from './countdown-world.js';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

const seconds = (text: string | null) => {
  const m = /(\d+):(\d\d)$/.exec(text?.trim() ?? '');
  if (!m) throw new Error(`not an m:ss countdown: ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
};

describe('the calendar header countdown', () => {
  it('counts down to the next HIGH release with a figure, then to the news window’s close', async () => {
    const inMs = 150_000;
    // the world the test needs: nothing of the demo's HIGH and with a figure before its release
    await expectNoHighAhead(e, inMs, hasFigure);
    const speech = await highRelease(e, 'Probe Chair Speech', 60_000, {
      isSpeech: true,
      consensus: null,
      previous: null,
    });
    const probe = await highRelease(e, 'Probe Payrolls', inMs, { consensus: 150, previous: 119 });

    const header = e.page.locator('.calendar-screen > header');
    // the next HIGH release is counted down once: as "Next alert" when the rules cover it
    // (the default rules: HIGH), else as "Next HIGH"
    const countdown = header.locator('[data-countdown=high]');
    await expect
      .poll(() => countdown.getAttribute('data-event-id'), { timeout: 20_000 })
      .toBe(probe.id);
    expect(await countdown.count()).toBe(1);
    const text = (await countdown.textContent()) ?? '';
    // the speech prints no figure: not the target, here or in "Next alert"
    expect(text).toMatch(/^Next alert: .*US Probe Payrolls in \d:\d\d$/);
    expect(await header.locator('.header-countdown').count()).toBe(1);
    expect(await header.textContent()).not.toContain(speech.name);
    const first = seconds(text);
    // whole seconds, rounded up: 2:31 while 150.2 s remain (the page's clock and the test's
    // agree to a few ms, not to the second)
    expect(first).toBeLessThanOrEqual(inMs / 1000 + 1);
    expect(first).toBeGreaterThan(60);
    // live: it moves on without a reload
    await expect
      .poll(async () => seconds(await countdown.textContent()), { timeout: 10_000 })
      .toBeLessThan(first);
    // the window title counts down to the same release
    expect(await e.page.title()).toMatch(/^US Probe Payrolls in /);

    // a news window: 3 minutes either side of HIGH releases; the probe's is open now
    const settings = await e.service.api.getSettings();
    await e.service.api.updateSettings({
      newsWindow: {
        ...settings.newsWindow,
        enabled: true,
        minutesBefore: 3,
        minutesAfter: 3,
        impacts: ['HIGH'],
      },
    });
    const windowCountdown = header.getByTestId('news-window-countdown');
    await windowCountdown.waitFor({ timeout: 15_000 });
    expect(await header.getByTestId('news-window-countdown').count()).toBe(1);
    const windowText = (await windowCountdown.textContent()) ?? '';
    expect(windowText).toMatch(/^News window open — closes in \d:\d\d$/);
    // it closes 3 minutes after the probe (the speech's window merges into it, before)
    const closesIn = seconds(windowText);
    const expected = (Date.parse(probe.dateUtc) + 180_000 - Date.now()) / 1000;
    expect(Math.abs(closesIn - expected)).toBeLessThan(5);
    // the header still counts down to the release itself, once
    expect(await countdown.count()).toBe(1);
    expect(await countdown.getAttribute('data-event-id')).toBe(probe.id);

    // rules that do not cover it (another country only): "Next HIGH" counts it down instead
    await e.service.api.setAlertRules({
      ...(await e.service.api.getAlertRules()),
      countries: ['CH'],
    });
    await expect
      .poll(() => countdown.getAttribute('data-testid'), { timeout: 15_000 })
      .toBe('next-high');
    expect(await countdown.count()).toBe(1);
    expect(await countdown.textContent()).toMatch(/^Next HIGH: .*US Probe Payrolls in \d:\d\d$/);
  });
});
