/**
 * The demo day looks like a real one (issue #26, defect 3): an hour of scenario time
 * prints the calendar's own releases and nothing else, with one story per print (per news
 * culture) tagged with the print's currency.
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { CULTURES } from '../../../src/simulator/data/news.js';
import { Deliverer } from '../../../src/simulator/deliveries.js';
import { Autoplay, ScenarioClock } from '../../../src/simulator/scenario.js';
import { createState } from '../../../src/simulator/state.js';
import { World } from '../../../src/simulator/world.js';

describe('an hour of demo time', () => {
  it('prints only what the schedule holds, each with one story', () => {
    // A Friday afternoon in London: US releases at 13:30 and 15:00.
    const start = Date.parse('2026-11-06T13:00:00Z');
    const state = createState();
    const calendar = generateCalendar(3, start);
    for (const m of calendar.events) state.events.set(m.event.id, m);
    for (const ed of calendar.eventDates) state.eventDates.set(ed.id, ed);
    const clock = new ScenarioClock(start, 0); // frozen: the test moves it
    const deliverer = new Deliverer(state, [10], 1_000);
    const world = new World(state, deliverer, clock.now, 3);
    const autoplay = new Autoplay(world, clock, 3);
    const pendingBefore = new Set(
      [...state.eventDates.values()].filter((d) => d.actual === null).map((d) => d.id),
    );
    const datesBefore = state.eventDates.size;
    try {
      for (let minute = 0; minute < 60; minute++) {
        clock.advance(60_000);
        autoplay.tick();
      }
    } finally {
      deliverer.close();
    }
    const printed = [...state.eventDates.values()].filter(
      (d) => d.actual !== null && pendingBefore.has(d.id),
    );
    expect(state.eventDates.size).toBe(datesBefore);
    expect(printed.length).toBeGreaterThan(0);
    for (const d of printed) {
      expect(Date.parse(d.dateUtc)).toBeLessThanOrEqual(start + 3_600_000);
      expect(Date.parse(d.dateUtc)).toBeGreaterThan(start);
    }
    const posts = [...state.posts.values()];
    expect(posts).toHaveLength(printed.length * CULTURES.length);
    for (const d of printed) {
      const about = posts.filter((p) => p.Title.includes(d.name));
      expect(about.length, d.name).toBeGreaterThanOrEqual(CULTURES.length);
      for (const p of about) expect(p.Tags?.map((t) => t.Name)).toContain(d.currencyCode);
    }
  });
});
