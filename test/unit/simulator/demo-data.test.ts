/**
 * The demo data reads like a real week (issue #16, 15): levels stay where the indicator
 * lives through years of history, and market stories about a print come right after it,
 * only when the print says what the story says; the others never on a weekend.
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { generatePosts } from '../../../src/simulator/data/news.js';

const NOW = Date.parse('2026-11-23T22:00:00Z');
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Every indicator's releases over each seed: its history, then the demo week's, in order. */
function* indicatorChains() {
  for (const seed of SEEDS) {
    const { events, eventDates } = generateCalendar(seed, NOW);
    for (const m of events) {
      if (!m.indicator) continue;
      const prints = [...m.history, ...eventDates.filter((ed) => ed.eventId === m.event.id)];
      yield { seed, ind: m.indicator, prints };
    }
  }
}

describe('demo indicator levels', () => {
  it('keeps every print within a few surprises of the indicator’s typical level', () => {
    const odd: string[] = [];
    for (const { seed, ind, prints } of indicatorChains()) {
      if (ind.spread === 0) continue;
      for (const ed of prints)
        if (ed.actual !== null && Math.abs(ed.actual - ind.level) > 6 * ind.spread)
          odd.push(`seed ${seed} ${ed.countryCode} ${ed.name}: ${ed.actual} (typ. ${ind.level})`);
    }
    expect(odd.slice(0, 10)).toEqual([]);
  });

  it('keeps policy rates within two 25 bp steps of their level, moving in 25 bp steps', () => {
    const odd: string[] = [];
    for (const { seed, ind, prints } of indicatorChains()) {
      if (ind.spread !== 0 || ind.speech || ind.category === 'holidays') continue;
      let last: number | null = null;
      for (const ed of prints) {
        if (ed.actual === null) continue;
        const step = last === null ? 0 : Math.abs(ed.actual - last);
        if (
          Math.abs(ed.actual - ind.level) > 0.5 + 1e-9 ||
          (step > 1e-9 && Math.abs(step - 0.25) > 1e-9)
        )
          odd.push(`seed ${seed} ${ed.name}: ${last} → ${ed.actual} (level ${ind.level})`);
        last = ed.actual;
      }
    }
    expect(odd.slice(0, 10)).toEqual([]);
  });

  it('writes a currency amount in billions with its symbol (DE Trade Balance €16B, not €16)', () => {
    const { events } = generateCalendar(1, NOW);
    const de = events.find(
      (m) => m.event.countryCode === 'DE' && m.event.name === 'Trade Balance s.a.',
    );
    expect(de?.event).toMatchObject({ unit: '€', potency: 'B' });
  });
});

describe('demo market stories', () => {
  const TIED: [
    RegExp,
    string,
    string,
    (ed: {
      actual: number | null;
      consensus: number | null;
      previous: number | null;
      isBetterThanExpected: boolean | null;
    }) => boolean,
  ][] = [
    [
      /^Pound Sterling slides as UK inflation undershoots$/,
      'UK',
      'Consumer Price Index (YoY)',
      (ed) => (ed.actual as number) < (ed.consensus as number),
    ],
    [
      /^ECB holds rates/,
      'EMU',
      'ECB Main Refinancing Operations Rate',
      (ed) => ed.actual === ed.previous,
    ],
    [
      /^WTI Oil slips after surprise build/,
      'US',
      'EIA Crude Oil Stocks Change',
      (ed) => (ed.actual as number) > 0 && (ed.actual as number) > (ed.consensus ?? 0),
    ],
    [
      /^AUD\/USD rallies as Australian employment beats/,
      'AU',
      'Employment Change s.a.',
      (ed) => ed.isBetterThanExpected === true,
    ],
    [/^China PMI back below 50/, 'CN', 'NBS Manufacturing PMI', (ed) => (ed.actual as number) < 50],
  ];

  it('publish a story about a print 25–55 min after it, and only when the print agrees', () => {
    let tied = 0;
    for (const seed of SEEDS) {
      const { eventDates } = generateCalendar(seed, NOW);
      const posts = generatePosts(seed, NOW, eventDates).filter((p) => p.Culture === 'en-US');
      for (const [title, country, name, agrees] of TIED) {
        const story = posts.find((p) => title.test(p.Title));
        const print = eventDates
          .filter(
            (ed) =>
              ed.countryCode === country &&
              ed.name === name &&
              ed.actual !== null &&
              Date.parse(ed.dateUtc) < NOW &&
              Date.parse(ed.dateUtc) > NOW - 7 * 86_400_000,
          )
          .sort((a, b) => b.dateUtc.localeCompare(a.dateUtc))[0];
        if (!story) {
          expect(
            print === undefined || !agrees(print),
            `${title} missing after ${print?.dateUtc}`,
          ).toBe(true);
          continue;
        }
        tied++;
        expect(print, `${story.Title} with no ${country} ${name} print that week`).toBeDefined();
        expect(agrees(print!), `${story.Title} after ${JSON.stringify(print)}`).toBe(true);
        const after = (Date.parse(story.PublicationDate) - Date.parse(print!.dateUtc)) / 60_000;
        expect(after).toBeGreaterThanOrEqual(25);
        expect(after).toBeLessThan(56);
      }
    }
    expect(tied).toBeGreaterThan(0);
  });

  it('never dates a general market story on a Saturday or Sunday', () => {
    const general =
      /^(EUR\/USD Forecast|Nonfarm Payrolls preview|USD\/JPY: Yen firms|Gold Price Forecast|USD\/CAD: Loonie)/;
    let seen = 0;
    for (const seed of SEEDS) {
      const posts = generatePosts(seed, NOW, generateCalendar(seed, NOW).eventDates);
      for (const p of posts.filter((x) => x.Culture === 'en-US' && general.test(x.Title))) {
        seen++;
        expect([0, 6], `${p.Title} ${p.PublicationDate}`).not.toContain(
          new Date(p.PublicationDate).getUTCDay(),
        );
      }
    }
    expect(seen).toBe(5 * SEEDS.length);
  });
});
