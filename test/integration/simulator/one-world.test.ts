// @clock any-moment — both worlds start at fixed scenario moments (opts.now); the real clock only paces autoplay
/**
 * Issue #45, item 4: one world. A release's figures are a function of the release, not of
 * when the demo started or how fast it plays: a fast demo (`--speed`) that shows a release
 * sooner prints what a demo at speed 1 printed for it (the same RBNZ decision once printed
 * 2.75% in one run and 2.50% in another).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import type { SimEventDate } from '../../../src/simulator/data/calendar.js';
import { start, waitFor } from './helpers.js';

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** The US jobs report of 4 December 2026, 08:30 ET, as a world holds it. */
const payrolls = (sim: RunningSimulator): SimEventDate | undefined =>
  [...sim.state.eventDates.values()].find(
    (ed) => ed.name === 'Nonfarm Payrolls' && ed.countryCode === 'US',
  );

const figures = (ed: SimEventDate) => ({
  id: ed.id,
  consensus: ed.consensus,
  previous: ed.previous,
  actual: ed.actual,
  revised: ed.revised,
});

/** Every printed release a world holds, history and window, by id. */
const printedReleases = (sim: RunningSimulator) => {
  const out = new Map<string, SimEventDate & { frequency: string }>();
  for (const model of sim.state.events.values()) {
    const frequency = model.indicator?.frequency ?? 'none';
    const window = [...sim.state.eventDates.values()].filter((ed) => ed.eventId === model.event.id);
    for (const ed of [...model.history, ...window])
      if (ed.actual !== null) out.set(ed.id, { ...ed, frequency });
  }
  return out;
};

describe('one world across start times and speeds', () => {
  // each pair starts in different years of history (monthly and quarterly figures, then
  // weekly ones), and the later demo's history holds releases the earlier one showed
  for (const [early, late, kinds] of [
    ['2026-03-10T12:00:00Z', '2027-01-20T12:00:00Z', ['monthly', 'quarterly', 'meeting']],
    ['2026-07-15T12:00:00Z', '2026-07-30T12:00:00Z', ['weekly', 'monthly', 'meeting']],
  ] as const)
    it(`demos started ${early} and ${late} print the same figures for a release`, async () => {
      const a = await start({ seed: 7, now: Date.parse(early) });
      running.push(a);
      const b = await start({ seed: 7, now: Date.parse(late) });
      running.push(b);
      const later = printedReleases(b);
      const shared = [...printedReleases(a).values()].filter((ed) => later.has(ed.id));
      for (const kind of kinds)
        expect(shared.filter((ed) => ed.frequency === kind).length, kind).toBeGreaterThan(5);
      const differ = shared
        .filter((ed) => JSON.stringify(figures(ed)) !== JSON.stringify(figures(later.get(ed.id)!)))
        .map((ed) => `${ed.countryCode} ${ed.name} ${ed.dateUtc}`);
      expect(differ.slice(0, 5)).toEqual([]);
    });

  it('a fast demo prints the payrolls a demo at speed 1 printed, to the digit', async () => {
    const release = Date.parse('2026-12-04T13:30:00Z');
    // an hour after the print, at speed 1: printed when the calendar was made
    const after = await start({ seed: 7, now: release + 3_600_000 });
    running.push(after);
    const printed = payrolls(after);
    expect(printed?.actual).not.toBeNull();

    // half an hour before it, 600 times faster: shown 3 s ahead, printed by autoplay
    const fast = await start({ seed: 7, now: release - 1_800_000, speed: 600, autoplay: true });
    running.push(fast);
    expect(payrolls(fast)?.actual).toBeNull();
    expect(Date.parse(payrolls(fast)!.dateUtc)).toBeLessThan(release - 1_700_000);
    await waitFor(
      () => payrolls(fast)?.actual != null || null,
      'the fast demo prints payrolls',
      20_000,
    );

    expect(figures(payrolls(fast)!)).toEqual(figures(printed!));
  });
});
