/**
 * Autoplay sleeps until the next release is due instead of waking every second (issue #37,
 * the idle tray app): on a manual clock, one wake-up per release, each print at its time,
 * and a re-plan when a release is added or moved or the scenario clock changes.
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { Deliverer } from '../../../src/simulator/deliveries.js';
import { Autoplay, MAX_SLEEP_MS, ScenarioClock } from '../../../src/simulator/scenario.js';
import { createState } from '../../../src/simulator/state.js';
import { World } from '../../../src/simulator/world.js';
import { ManualClock } from '../../support/manual-clock.js';

const START = Date.UTC(2026, 11, 2, 14, 0, 0);
const MINUTE = 60_000;

/** A world with the demo's indicators and no releases but the ones a test makes. */
function setup(speed = 1) {
  const real = new ManualClock(START);
  const state = createState();
  for (const model of generateCalendar(5, START).events) state.events.set(model.event.id, model);
  const clock = new ScenarioClock(START, speed, 1, real.read);
  const world = new World(state, new Deliverer(state, []), clock.now, 5);
  const ticks = { n: 0 };
  const autoplay = new Autoplay(world, clock, 5, {
    setTimeout: (fn, ms) =>
      real.setTimeout(() => {
        ticks.n++;
        fn();
      }, ms),
    clearTimeout: (h) => real.clearTimeout(h),
  });
  const printing = [...state.events.values()].find(
    (m) => m.indicator && !m.indicator.speech && m.indicator.category !== 'holidays',
  )!;
  const release = (at: number) =>
    world.createEventDate({
      eventId: printing.event.id,
      dateUtc: new Date(at).toISOString(),
      actual: null,
    }).id;
  const actual = (id: string) => state.eventDates.get(id)?.actual ?? null;
  return { real, clock, world, autoplay, release, actual, ticks };
}

describe('autoplay wakes when a release is due, not every second', () => {
  it('prints each release at its time, with one wake-up for it', () => {
    const { real, autoplay, release, actual, ticks } = setup();
    const first = release(START + 10 * 1000);
    const second = release(START + 25 * 1000);
    autoplay.start();
    expect(autoplay.nextWakeMs()).toBe(10_000);

    real.advance(9_999);
    expect(actual(first)).toBeNull();
    expect(ticks.n).toBe(0);
    real.advance(1);
    expect(actual(first)).not.toBeNull();
    expect(actual(second)).toBeNull();
    expect(ticks.n).toBe(1);

    real.advance(15_000);
    expect(actual(second)).not.toBeNull();
    expect(ticks.n).toBe(2);
    autoplay.stop();
    expect(real.pending).toBe(0);
  });

  it('with nothing due, sleeps a minute at a time', () => {
    const { real, autoplay, release, actual, ticks } = setup();
    const later = release(START + 150 * MINUTE);
    autoplay.start();
    expect(autoplay.nextWakeMs()).toBe(MAX_SLEEP_MS);
    real.advance(10 * MINUTE);
    expect(ticks.n).toBe(10);
    real.advance(140 * MINUTE);
    expect(actual(later)).not.toBeNull();
    autoplay.stop();
  });

  it('re-plans when a release is added, moved or deleted', () => {
    const { real, world, autoplay, release, actual } = setup();
    const far = release(START + 30 * 1000);
    autoplay.start();
    real.advance(1_000);
    // added sooner than the one it sleeps for
    const soon = release(START + 3_000);
    expect(autoplay.nextWakeMs()).toBe(2_000);
    real.advance(2_000);
    expect(actual(soon)).not.toBeNull();
    // moved sooner
    world.patchEventDate(far, { dateUtc: new Date(START + 5_000).toISOString() });
    real.advance(2_000);
    expect(actual(far)).not.toBeNull();
    // the only pending one deleted: back to the minute's sleep
    const gone = release(START + 8_000);
    world.deleteEventDate(gone);
    expect(autoplay.nextWakeMs()).toBe(MAX_SLEEP_MS);
    autoplay.stop();
  });

  it('follows the scenario clock: its speed and a jump (the control API then steps it)', () => {
    const { real, clock, autoplay, release, actual } = setup(0.5);
    const id = release(START + 10_000);
    autoplay.start();
    // half speed: ten scenario seconds take twenty real ones
    expect(autoplay.nextWakeMs()).toBe(20_000);
    real.advance(19_999);
    expect(actual(id)).toBeNull();
    real.advance(1);
    expect(actual(id)).not.toBeNull();

    const next = release(START + 10 * MINUTE);
    clock.setSpeed(0);
    autoplay.tick();
    expect(autoplay.nextWakeMs()).toBe(MAX_SLEEP_MS);
    clock.advance(10 * MINUTE);
    autoplay.tick();
    expect(actual(next)).not.toBeNull();
    autoplay.stop();
  });
});
