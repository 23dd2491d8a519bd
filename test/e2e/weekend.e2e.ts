// @clock 2026-12-05T10:00:00Z — a Saturday morning: no release prints until Monday in Asia
/**
 * The calendar on a day with no releases opens on that day: Saturday's header, the now line
 * in view, and "No releases today — next: <the next release>, <day> <time>", not Monday's
 * rows under a hidden now line.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './harness.js';

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
});
afterAll(() => e?.close());

describe('a Saturday', () => {
  it('shows Saturday, the now line and the next release', async () => {
    // the runner pins the clock (scripts/clock.mjs); run alone, this test says so
    expect(
      new Date().toISOString().slice(0, 10),
      'run it with `npm test` (it pins the clock)',
    ).toBe('2026-12-05');
    const now = Date.now();
    const ahead = await e.service.api.listEventDates({
      from: new Date(now).toISOString(),
      to: new Date(now + 4 * 86_400_000).toISOString(),
    });
    const next = ahead.find((r) => !r.isAllDay && Date.parse(r.dateUtc) >= now);
    if (!next) throw new Error('the demo has no release in the four days after Saturday');
    expect(next.dateUtc.slice(0, 10) > '2026-12-05', 'nothing prints on Saturday').toBe(true);

    const grid = e.page.locator('#calendar-grid');
    const saturday = grid.locator('.day-row[data-day="2026-12-05"]');
    await saturday.waitFor();
    expect(await saturday.textContent()).toBe('Saturday 5 December');
    const quiet = e.page.getByTestId('quiet-day');
    expect(await quiet.count()).toBe(1);
    const time = next.dateUtc.slice(11, 16);
    const weekday = new Date(next.dateUtc).toLocaleDateString('en-GB', {
      weekday: 'short',
      timeZone: 'UTC',
    });
    expect(await quiet.textContent()).toBe(
      `No releases today — next: ${next.countryCode} ${next.name}, ${weekday} ${time}`,
    );
    const nowLine = e.page.getByTestId('now-line');
    expect(await nowLine.count()).toBe(1);
    expect(await nowLine.isVisible()).toBe(true);
    // in that order, on screen: Saturday's header, the now line, the quiet-day line
    const tops = await Promise.all(
      [saturday, nowLine, quiet].map(async (l) => (await l.boundingBox())?.y ?? -1),
    );
    expect(tops[0]).toBeGreaterThanOrEqual(0);
    expect([...tops].sort((a, b) => a - b)).toEqual(tops);
    const gridBox = await grid.boundingBox();
    expect(tops[2]).toBeLessThan((gridBox?.y ?? 0) + (gridBox?.height ?? 0));
    await e.page.screenshot({ path: join(tmpdir(), 'macrobell-saturday.png') });
  });
});
