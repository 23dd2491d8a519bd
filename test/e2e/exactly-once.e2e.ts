// @clock 2026-12-02T14:05:00Z — a Wednesday afternoon: other demo releases' windows and reminders are the same each run
/**
 * One alert, one toast, one sound — in Chromium, on the web host as `npm run web` runs it
 * (auto mode behind the mode switch, demo data without keys). The page counts every
 * `audio.play()` and every utterance of the squawk itself (stubbed before its scripts), and
 * the toasts are counted, never `.first()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;

declare global {
  interface Window {
    __plays: string[];
    __spoken: string[];
    /** Each toast as it came on screen: its text and when (performance.now()). */
    __toastsSeen: { text: string; at: number }[];
  }
}

beforeAll(async () => {
  e = await startE2E({
    modeSwitch: true,
    initScript: () => {
      window.__plays = [];
      window.__spoken = [];
      window.__toastsSeen = [];
      document.addEventListener('DOMContentLoaded', () => {
        new MutationObserver((records) => {
          for (const r of records)
            for (const node of r.addedNodes)
              if (node instanceof HTMLElement && node.dataset.testid === 'toast')
                window.__toastsSeen.push({ text: node.textContent ?? '', at: performance.now() });
        }).observe(document.body, { childList: true, subtree: true });
      });
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        window.__plays.push(this.getAttribute('data-sound') ?? '?');
        return play.call(this).catch(() => undefined);
      };
      Object.defineProperty(window, 'speechSynthesis', {
        configurable: true,
        value: { speak: (u: SpeechSynthesisUtterance) => window.__spoken.push(u.text) },
      });
    },
  });
  // a first click on the page: browsers let a page play sound only after one
  await e.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Calendar' })
    .click();
});
afterAll(() => e?.close());

const plays = () => e.page.evaluate(() => [...window.__plays]);
/** Every toast seen so far, for the message of a failed count (which toast sounded twice?). */
const toastLog = () =>
  e.page.evaluate(() =>
    window.__toastsSeen.map((t) => `${Math.round(t.at)} ms: ${t.text.slice(0, 80)}`).join('\n'),
  );
const spoken = () => e.page.evaluate(() => [...window.__spoken]);
const toasts = (text: string) => e.page.getByTestId('toast').filter({ hasText: text });
/** A duplicate has no signal of its own: past the confirming fetch and the grouping window. */
const pastRepeats = () => e.page.waitForTimeout(2_000);

/**
 * A HIGH release `inMs` from now, of an event of its own: watching one release's event must
 * not watch another test's release too (a second reminder, a second sound).
 */
async function createRelease(
  inMs: number,
  name: string,
  /** An event of the demo's, with a year of history (default: an event of its own). */
  withHistory = false,
): Promise<EventDate> {
  const eventId = withHistory
    ? // an indicator that has printed (a holiday or a speech has no history)
      (
        (await sim<EventDate[]>(e, 'GET', '/_sim/event-dates')).find(
          (d) => !d.isAllDay && d.consensus !== null && d.actual !== null,
        ) as EventDate
      ).eventId
    : (
        await sim<{ id: string }>(e, 'POST', '/_sim/events', {
          name,
          countryCode: 'CN',
          currencyCode: 'CNY',
          volatility: 'HIGH',
        })
      ).id;
  return sim<EventDate>(e, 'POST', '/_sim/event-dates', {
    eventId,
    dateUtc: new Date(Date.now() + inMs).toISOString(),
    volatility: 'HIGH',
    consensus: 200,
    name,
  });
}

/**
 * The demo's own HIGH releases due within `ms` (or just past) made MEDIUM, so turning news
 * windows on for HIGH opens none of theirs: a count of toasts and sounds is then exact.
 */
async function quietHorizon(ms: number): Promise<void> {
  const now = Date.now();
  const near = (await sim<EventDate[]>(e, 'GET', '/_sim/event-dates')).filter((d) => {
    const at = Date.parse(d.dateUtc);
    return d.volatility === 'HIGH' && at > now - 5 * 60_000 && at < now + ms;
  });
  for (const d of near)
    await sim(e, 'PATCH', `/_sim/event-dates/${d.id}`, { volatility: 'MEDIUM' });
}

describe('exactly once in the browser', () => {
  it('a print: one toast and one audio.play()', async () => {
    const ed = await createRelease(1_500, 'Once Payrolls');
    await e.page.waitForFunction((at) => Date.now() >= at, Date.parse(ed.dateUtc));
    const before = await plays();
    await sim(e, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 275 });
    await toasts('Once Payrolls').waitFor({ timeout: 10_000 });
    await pastRepeats();
    expect(await toasts('Once Payrolls').count()).toBe(1);
    expect((await plays()).slice(before.length), await toastLog()).toEqual(['HIGH']);
  });

  it('the test alert: one toast and one audio.play() (the banner does not sound again)', async () => {
    const before = await plays();
    await e.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Settings' })
      .click();
    await e.page.getByRole('button', { name: 'Send test alert' }).click();
    await e.page.getByTestId('test-alert-result').waitFor();
    await e.page.getByTestId('alert-banner').waitFor(); // the browser may not notify here
    await pastRepeats();
    expect(await toasts('Macrobell test alert').count()).toBe(1);
    expect((await plays()).slice(before.length), await toastLog()).toEqual(['HIGH']);
    await e.page.getByTestId('alert-banner').getByRole('button', { name: 'Dismiss' }).click();
  });

  it('opening an event’s detail with the squawk on speaks nothing and notifies nothing', async () => {
    await e.service.api.updateSettings({ squawk: { prints: 'watched-and-high', consensus: true } });
    const ed = await createRelease(3_600_000, 'Once History', true);
    await e.service.api.setWatched({ eventId: ed.eventId, watched: true }); // "watched" too
    await e.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Calendar' })
      .click();
    const before = { plays: await plays(), spoken: await spoken() };
    const toastsBefore = await e.page.getByTestId('toast').count();
    await e.page.getByLabel('Filter events by name').fill('Once History');
    const row = e.page.locator(`[data-event-date-id="${ed.id}"]`);
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    // named after the event once its detail loads (the row's own name before)
    await e.page.getByTestId('event-detail').waitFor({ timeout: 10_000 });
    expect(await e.page.getByTestId('event-detail').count()).toBe(1);
    // the detail has fetched and cached the event's year of prints (the history the old
    // squawk read aloud as news)
    await expect
      .poll(
        async () => (await e.service.api.getEventDetail({ eventId: ed.eventId })).history.length,
      )
      .toBeGreaterThan(3);
    await pastRepeats();
    expect(await spoken()).toEqual(before.spoken);
    expect(await plays()).toEqual(before.plays);
    expect(await e.page.getByTestId('toast').count()).toBe(toastsBefore);
    await e.page.getByLabel('Filter events by name').fill('');
  });

  it('two releases printed in the same second are on screen within 150 ms of each other', async () => {
    const any = (await sim<EventDate[]>(e, 'GET', '/_sim/event-dates'))[0] as EventDate;
    const at = new Date(Date.now() + 2_000).toISOString();
    const make = (name: string) =>
      sim<EventDate>(e, 'POST', '/_sim/event-dates', {
        eventId: any.eventId,
        dateUtc: at,
        volatility: 'HIGH',
        name,
      });
    const [payrolls, jobless] = [
      await make('Same Second Payrolls'),
      await make('Same Second Jobless'),
    ];
    await e.page.waitForFunction((t) => Date.now() >= t, Date.parse(at));
    await sim(e, 'PATCH', `/_sim/event-dates/${payrolls.id}`, { actual: 275 });
    await sim(e, 'PATCH', `/_sim/event-dates/${jobless.id}`, { actual: 4.1 });
    const firstSeen = async (name: string) =>
      e.page.evaluate((n) => window.__toastsSeen.find((t) => t.text.includes(n))?.at ?? null, name);
    await expect.poll(() => firstSeen('Same Second Payrolls'), { timeout: 10_000 }).not.toBeNull();
    await expect.poll(() => firstSeen('Same Second Jobless'), { timeout: 10_000 }).not.toBeNull();
    const gap = Math.abs(
      ((await firstSeen('Same Second Payrolls')) ?? 0) -
        ((await firstSeen('Same Second Jobless')) ?? 0),
    );
    expect(gap).toBeLessThanOrEqual(150);
  });

  it('a reminder and a news-window notice: one toast and one audio.play() each', async () => {
    const { reminderMinutes } = await e.service.api.getAlertRules();
    const settings = await e.service.api.getSettings();
    await e.service.api.updateSettings({
      // windows end at their release: those of the releases printed above are closed, so
      // this one opens (an open window would take it in without a notice)
      newsWindow: {
        ...settings.newsWindow,
        enabled: true,
        alerts: true,
        impacts: ['HIGH'],
        minutesAfter: 0,
      },
    });
    const { minutesBefore } = (await e.service.api.getSettings()).newsWindow;
    await quietHorizon((minutesBefore + 15) * 60_000);
    const before = await plays();
    const seenBefore = await e.page.evaluate(() => window.__toastsSeen.length);
    // due in two seconds: the reminder of a watched release; once it is on screen, a news
    // window opening (apart, so the two are not grouped into one toast)
    const reminded = await createRelease(reminderMinutes * 60_000 + 2_000, 'Once Reminder');
    await e.service.api.setWatched({ eventId: reminded.eventId, watched: true });
    const reminder = toasts(`Once Reminder in ${reminderMinutes} min`);
    await reminder.waitFor({ timeout: 10_000 });
    await createRelease(minutesBefore * 60_000 + 2_500, 'Once Window');
    const notice = e.page.getByTestId('toast').filter({ hasText: 'News window open' });
    await notice.waitFor({ timeout: 10_000 });
    await pastRepeats();
    expect(await reminder.count()).toBe(1);
    expect(await notice.count()).toBe(1);
    // Nothing else of the demo's can open a window now (quietHorizon): these two toasts are
    // all there is, each with one sound.
    const toastsShown = await e.page.evaluate((n) => window.__toastsSeen.length - n, seenBefore);
    expect(toastsShown, await toastLog()).toBe(2);
    expect((await plays()).slice(before.length), await toastLog()).toHaveLength(2);
  });
});
