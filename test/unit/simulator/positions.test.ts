/**
 * CFTC positioning in the demo (issue #36, item 4): speculators' net positions are counts of
 * contracts that nobody forecasts, so no currency sign, no consensus and no beat or miss,
 * and a story on the print that does not say it came in line with anything.
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { afterPrint } from '../../../src/simulator/data/release-news.js';

const NOW = Date.parse('2026-11-23T22:00:00Z');

describe('demo CFTC positions', () => {
  const { events, eventDates } = generateCalendar(1, NOW);
  const cftc = events.filter((m) => m.event.name.startsWith('CFTC'));
  const dates = eventDates.filter((ed) => ed.name.startsWith('CFTC'));

  it('are ten weekly series in contracts, with no consensus and no verdict', () => {
    expect(cftc).toHaveLength(10);
    expect(cftc.map((m) => m.event.unit)).toEqual(Array(10).fill(null));
    const all = [...cftc.flatMap((m) => m.history), ...dates];
    expect(all.length).toBeGreaterThan(10 * 26);
    expect(all.filter((ed) => ed.consensus !== null)).toEqual([]);
    expect(
      all.filter((ed) => ed.isBetterThanExpected !== null || ed.ratioDeviation !== null),
    ).toEqual([]);
  });

  it('print a figure and show the last one as previous before the print', () => {
    const printed = dates.filter((ed) => Date.parse(ed.dateUtc) < NOW);
    const upcoming = dates.filter((ed) => Date.parse(ed.dateUtc) > NOW);
    expect(printed.length).toBeGreaterThan(0);
    expect(upcoming.length).toBeGreaterThan(0);
    expect(printed.every((ed) => ed.actual !== null && ed.previous !== null)).toBe(true);
    expect(upcoming.every((ed) => ed.actual === null && ed.previous !== null)).toBe(true);
  });

  it('get a story that gives the figure and the one before, not “in line”', () => {
    const ed = dates.find((d) => d.actual !== null && d.currencyCode === 'EUR');
    const story = afterPrint(ed!, 0);
    expect(story?.title['en-US']).toMatch(
      /^EMU CFTC EUR NC Net Positions at -?\d+\.\dK, after -?\d+\.\dK$/,
    );
  });
});
