// @clock 2026-12-02T14:05:00Z — a Wednesday afternoon: the demo's own releases and reminders are the same each run
/**
 * An alert reaches the trader whatever else fails (issue 42), in Chromium on the web host:
 * after "Save rules" and a touched rule (which used to blank the app), after a screen
 * throws, after the toasts layer throws, and with a renderer that acknowledges nothing.
 * Each HIGH print is counted exactly — toasts and the page's fallback alerts by their text,
 * every `audio.play()` — and its receipt says which surface showed it, or that none did.
 * The failures are the e2e build's test fault switches (src/renderer/src/lib/test-faults.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertRecord, EventDate, FeedLatency } from '../../src/shared/domain.js';
import { sim, startE2E, type E2E } from './harness.js';

let e: E2E;

declare global {
  interface Window {
    __plays: string[];
    __macrobellFaults?: string[];
  }
}

beforeAll(async () => {
  e = await startE2E({
    initScript: () => {
      window.__plays = [];
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        window.__plays.push(this.getAttribute('data-sound') ?? '?');
        return play.call(this).catch(() => undefined);
      };
    },
  });
  // a first click on the page: browsers let a page play sound only after one
  await nav('Calendar');
});
afterAll(() => e?.close());

function nav(name: string) {
  return e.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${name}`) })
    .click();
}
const faults = (on: string[]) => e.page.evaluate((f) => (window.__macrobellFaults = f), on);
const plays = () => e.page.evaluate(() => [...window.__plays]);
const toasts = (text: string) => e.page.getByTestId('toast').filter({ hasText: text });
const pageAlerts = (text: string) => e.page.getByTestId('page-alert').filter({ hasText: text });
/** A duplicate has no signal of its own: past the confirming fetch, grouping and the deadline. */
const pastRepeats = () => e.page.waitForTimeout(2_500);

/** A HIGH release of an event of its own, `inMs` from now. */
async function createRelease(inMs: number, name: string): Promise<EventDate> {
  const { id: eventId } = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
    name,
    countryCode: 'CN',
    currencyCode: 'CNY',
    volatility: 'HIGH',
  });
  return sim<EventDate>(e, 'POST', '/_sim/event-dates', {
    eventId,
    dateUtc: new Date(Date.now() + inMs).toISOString(),
    volatility: 'HIGH',
    consensus: 200,
    name,
  });
}

/** The release prints at its time; resolves with the sounds played since just before. */
async function print(ed: EventDate): Promise<() => Promise<string[]>> {
  await e.page.waitForFunction((at) => Date.now() >= at, Date.parse(ed.dateUtc));
  const before = (await plays()).length;
  await sim(e, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 275 });
  return async () => (await plays()).slice(before);
}

/** The alert row of a release, once its receipt says what happened after sending. */
async function alertOf(ed: EventDate, settled: (a: AlertRecord) => boolean): Promise<AlertRecord> {
  let found: AlertRecord | undefined;
  await expect
    .poll(
      async () => {
        found = (await e.service.api.listAlerts({ limit: 100 })).find(
          (a) => a.target.type === 'eventDate' && a.target.eventDateId === ed.id,
        );
        return found !== undefined && settled(found);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found as AlertRecord;
}

const totals = (rows: FeedLatency[]) => ({
  count: rows.reduce((n, r) => n + r.count, 0),
  unacknowledged: rows.reduce((n, r) => n + (r.unacknowledged ?? 0), 0),
});

describe('an alert reaches the trader whatever else fails', () => {
  it('after "Save rules", a touched rule and back to the calendar: one toast naming the print, one sound, its receipt names the toast', async () => {
    await nav('Alerts');
    const rules = e.page.getByRole('form', { name: 'Alert rules' });
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await rules.getByRole('status').waitFor();
    // touch a rule: the confirmation goes (its effect ran again, which used to crash React)
    const late = rules.getByLabel(/first seen this late/);
    await late.fill(String(Number(await late.inputValue()) + 1));
    await expect.poll(() => rules.getByRole('status').count()).toBe(0);
    // the screen lives on: no failure for its boundary to catch
    expect(await e.page.getByTestId('screen-failed').count()).toBe(0);
    expect(await rules.getByRole('button', { name: 'Save rules' }).isVisible()).toBe(true);
    await nav('Calendar');
    await e.page.locator('[data-testid=event-row]').first().waitFor({ timeout: 10_000 });

    const ed = await createRelease(1_500, 'Saved Rules Payrolls');
    const played = await print(ed);
    await toasts('Saved Rules Payrolls').waitFor({ timeout: 10_000 });
    await pastRepeats();
    expect(await toasts('Saved Rules Payrolls').count()).toBe(1);
    expect(await pageAlerts('Saved Rules Payrolls').count()).toBe(0);
    expect(await played()).toEqual(['HIGH']);
    const alert = await alertOf(ed, (a) => a.receipt?.shownAt != null);
    expect(alert.receipt?.shownBy).toBe('toast');
  });

  it('a screen that throws: it says so and offers a reload, the rest runs, the print still gets one toast and one sound', async () => {
    await faults(['calendar-throws']);
    await nav('News');
    await nav('Calendar');
    const failed = e.page.getByTestId('screen-failed');
    await failed.waitFor({ timeout: 10_000 });
    expect(await failed.textContent()).toContain('test fault: calendar-throws');
    // the sidebar still works
    expect(await e.page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);

    const ed = await createRelease(1_500, 'Failed Screen Payrolls');
    const played = await print(ed);
    await toasts('Failed Screen Payrolls').waitFor({ timeout: 10_000 });
    await pastRepeats();
    expect(await toasts('Failed Screen Payrolls').count()).toBe(1);
    expect(await pageAlerts('Failed Screen Payrolls').count()).toBe(0);
    expect(await played()).toEqual(['HIGH']);
    expect((await alertOf(ed, (a) => a.receipt?.shownAt != null)).receipt?.shownBy).toBe('toast');

    await faults([]);
    await failed.getByRole('button', { name: 'Reload this screen' }).click();
    await e.page.locator('[data-testid=event-row]').first().waitFor({ timeout: 10_000 });
    expect(await failed.count()).toBe(0);
  });

  it('a toasts layer that throws: the fallback alert outside React, one sound, and the receipt names it', async () => {
    await faults(['toasts-throw']);
    const ed = await createRelease(1_500, 'Fallback Payrolls');
    const played = await print(ed);
    await pageAlerts('Fallback Payrolls').waitFor({ timeout: 10_000 });
    await pastRepeats();
    expect(await pageAlerts('Fallback Payrolls').count()).toBe(1);
    expect(await toasts('Fallback Payrolls').count()).toBe(0);
    expect(await played()).toEqual(['HIGH']);
    const alert = await alertOf(ed, (a) => a.receipt?.shownAt != null);
    expect(alert.receipt?.shownBy).toBe('page-alert');
    expect(alert.receipt?.fallbackAt).toEqual(expect.any(Number));
    await faults([]);
    await pageAlerts('Fallback Payrolls')
      .getByRole('button', { name: /^Dismiss/ })
      .click();
    expect(await pageAlerts('Fallback Payrolls').count()).toBe(0);
  });

  it('a renderer that acknowledges nothing: the fallback fires, the receipt says no surface showed it, the panel does not count it as shown', async () => {
    const before = totals((await e.service.api.getStatus()).feedLatency);
    await faults(['no-ack']);
    const ed = await createRelease(1_500, 'Unacknowledged Payrolls');
    await print(ed);
    await toasts('Unacknowledged Payrolls').waitFor({ timeout: 10_000 });
    const alert = await alertOf(ed, (a) => a.receipt?.fallbackAt != null);
    await pastRepeats();
    const receipt = (await alertOf(ed, () => true)).receipt;
    expect(receipt?.shownAt).toBeNull();
    expect(receipt?.shownBy).toBeUndefined();
    expect((receipt?.fallbackAt as number) - (receipt?.sentAt as number)).toBeGreaterThanOrEqual(
      1_000,
    );
    // its toast was on screen: the fallback found it there and put up no second alert
    expect(await toasts('Unacknowledged Payrolls').count()).toBe(1);
    expect(await pageAlerts('Unacknowledged Payrolls').count()).toBe(0);
    await faults([]);

    const after = totals((await e.service.api.getStatus()).feedLatency);
    expect(after).toEqual({ count: before.count, unacknowledged: before.unacknowledged + 1 });
    await nav('Settings');
    const panel = e.page.getByTestId('feed-latency');
    await panel.waitFor({ timeout: 10_000 });
    const cells = async (id: string) =>
      (await panel.getByTestId(id).allTextContents()).reduce((n, t) => n + Number(t), 0);
    await expect.poll(() => cells('latency-unacknowledged')).toBe(after.unacknowledged);
    expect(await cells('latency-count')).toBe(after.count);

    await nav('Alerts');
    const row = e.page
      .getByRole('list', { name: 'Alert history' })
      .getByRole('listitem')
      .filter({ hasText: 'Unacknowledged Payrolls' });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByTestId('alert-receipt').locator('summary').textContent()).toMatch(
      /^Not acknowledged by any surface; the fallback fired \+\d+\.\d\d s after the print, via /,
    );
    expect(alert.id).toBeGreaterThan(0);
    await nav('Calendar');
  });
});
