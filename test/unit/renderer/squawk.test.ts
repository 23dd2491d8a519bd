// @vitest-environment jsdom
/**
 * The desk squawk: the words queued on the platform's speech synthesis (stubbed: jsdom has
 * none) on a print, and the consensus 10 seconds before a watched release.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/domain.js';
import { consensusText, printText, spokenValue } from '../../../src/shared/squawk-text.js';
import { createAppStore } from '../../../src/renderer/src/state/app.js';
import { startSquawk } from '../../../src/renderer/src/state/squawk.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ed, testBridge } from './harness.js';

const queued: string[] = [];
beforeEach(() => {
  queued.length = 0;
  class Utterance {
    constructor(readonly text: string) {}
  }
  Object.assign(window, {
    SpeechSynthesisUtterance: Utterance,
    speechSynthesis: { speak: (u: Utterance) => queued.push(u.text) },
  });
});
afterEach(() => {
  delete (window as { speechSynthesis?: unknown }).speechSynthesis;
});

const nfp = ed(1, {
  id: 'ed-nfp',
  eventId: 'ev-nfp',
  countryCode: 'US',
  name: 'Nonfarm Payrolls',
  volatility: 'HIGH',
  unit: 'K',
  potency: 'K',
  actual: 275,
  consensus: 200,
  isBetterThanExpected: null,
});

/** A print the alert decision called news, on time. */
const now = { late: false };

function started(squawk: Settings['squawk'], watched: string[] = ['ev-nfp'], rows = [nfp]) {
  const clock = new ManualClock(Date.parse('2026-12-04T13:20:00Z'));
  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    squawk,
    alertRules: { ...DEFAULT_SETTINGS.alertRules, watchedEventIds: watched },
  };
  const t = testBridge(rows, {}, { settings });
  const app = createAppStore(t.bridge);
  const stop = startSquawk(t.bridge, app, {
    now: clock.read,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (h) => clock.clearTimeout(h),
  });
  app.setState({ settings });
  return { ...t, clock, stop };
}

describe('desk squawk', () => {
  it('says the print as a desk would', () => {
    expect(printText(nfp)).toBe('US Nonfarm Payrolls, 275 thousand, consensus 200, beat');
    const cpi = {
      ...nfp,
      name: 'CPI (YoY)',
      unit: '%',
      potency: 'ZERO',
      actual: -0.2,
      consensus: -0.2,
    };
    expect(printText(cpi)).toBe('US CPI (YoY), minus 0.2 percent, consensus minus 0.2, in line');
    expect(consensusText(nfp, 10)).toBe(
      'US Nonfarm Payrolls in 10 seconds, consensus 200 thousand',
    );
    expect(spokenValue(4.191, { unit: '%', potency: null })).toBe('4.191 percent');
  });

  it('reads a watched print aloud once; an unwatched one only with "every high impact"', () => {
    const watchedOnly = started({ prints: 'watched', consensus: false });
    watchedOnly.push('changes', [
      { kind: 'released', eventDate: nfp, source: 'relay', print: now },
    ]);
    watchedOnly.push('changes', [{ kind: 'released', eventDate: nfp, source: 'poll', print: now }]); // again
    const other = {
      ...nfp,
      id: 'ed-ism',
      eventId: 'ev-ism',
      name: 'ISM Services PMI',
      unit: '',
      potency: 'ZERO',
      actual: 52.1,
      consensus: 51,
    };
    watchedOnly.push('changes', [
      { kind: 'released', eventDate: other, source: 'relay', print: now },
    ]);
    expect(queued).toEqual(['US Nonfarm Payrolls, 275 thousand, consensus 200, beat']);
    watchedOnly.stop();

    queued.length = 0;
    const high = started({ prints: 'watched-and-high', consensus: false }, []);
    high.push('changes', [{ kind: 'released', eventDate: other, source: 'relay', print: now }]);
    expect(queued).toEqual(['US ISM Services PMI, 52.1, consensus 51.0, beat']);
    high.stop();

    queued.length = 0;
    const off = started({ prints: 'off', consensus: false });
    off.push('changes', [{ kind: 'released', eventDate: nfp, source: 'relay', print: now }]);
    expect(queued).toEqual([]);
  });

  it('history is not news: a print without the decision’s mark, or a late one, is not read', () => {
    const s = started({ prints: 'watched-and-high', consensus: false });
    // the year of prints an event's detail caches
    s.push('changes', [{ kind: 'released', eventDate: nfp, source: 'backfill' }]);
    s.push('changes', [
      { kind: 'released', eventDate: nfp, source: 'poll', print: { late: true } },
    ]);
    expect(queued).toEqual([]);
  });

  it('reads the consensus 10 seconds before a watched release', async () => {
    const at = Date.parse('2026-12-04T13:30:00Z');
    const upcoming = { ...nfp, actual: null, dateUtc: new Date(at).toISOString() };
    const s = started({ prints: 'off', consensus: true }, ['ev-nfp'], [upcoming]);
    // planned: the re-plan timer and the release's consensus timer
    await expect.poll(() => s.clock.pending).toBe(2);
    s.clock.advance(at - 10_001 - s.clock.now);
    expect(queued).toEqual([]);
    s.clock.advance(1);
    expect(queued).toEqual(['US Nonfarm Payrolls in 10 seconds, consensus 200 thousand']);
    s.stop();
  });

  it('speaks each consensus once when two plans overlap (settings, then a reschedule)', async () => {
    const at = Date.parse('2026-12-04T13:30:00Z');
    const upcoming = { ...nfp, actual: null, dateUtc: new Date(at).toISOString() };
    const s = started({ prints: 'off', consensus: true }, ['ev-nfp'], [upcoming]);
    // a second plan starts while the first still waits for its rows
    s.push('changes', [
      { kind: 'rescheduled', eventDate: upcoming, fromDateUtc: upcoming.dateUtc, source: 'relay' },
    ]);
    await expect.poll(() => s.clock.pending).toBe(2);
    // both plans asked for their rows; the answers resolve in microtasks, all run before
    // the next macrotask: then both plans have their rows (no timed wait)
    await expect.poll(() => s.calls.filter(([m]) => m === 'listEventDates').length).toBe(2);
    await new Promise((r) => setTimeout(r, 0));
    expect(s.clock.pending).toBe(2);
    s.clock.advance(at - s.clock.now);
    expect(queued).toEqual(['US Nonfarm Payrolls in 10 seconds, consensus 200 thousand']);
    s.stop();
  });
});
