/**
 * The demo's invented stories (issue #36, item 6) put no words in real people's mouths and
 * send no one to a real site: invented bylines, the demo's own newsroom, no links, and a
 * "Reaction in" line that names a market.
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { generatePosts, makePost } from '../../../src/simulator/data/news.js';
import { createRng } from '../../../src/simulator/rng.js';

const NOW = Date.parse('2026-11-23T22:00:00Z');
// the bylines the demo carried before: real FXStreet analysts
const REAL = [
  'Joseph Trevisani',
  'Valeria Bednarik',
  'Yohay Elam',
  'Eren Sengezer',
  'Ross J Burland',
  'Christian Borjon Valencia',
  'Haresh Menghani',
  'Dhwani Mehta',
];

describe('demo stories', () => {
  const posts = [1, 2, 3].flatMap((seed) =>
    generatePosts(seed, NOW, generateCalendar(seed, NOW).eventDates),
  );

  it('carry invented bylines under the demo’s own newsroom, and no link anywhere', () => {
    expect(posts.length).toBeGreaterThan(100);
    const bylines = new Set(posts.map((p) => p.Author.Name));
    expect(bylines.size).toBe(8);
    expect([...bylines].filter((name) => REAL.includes(name))).toEqual([]);
    expect(new Set(posts.map((p) => p.Company.Name))).toEqual(new Set(['Macrobell demo newsroom']));
    const text = JSON.stringify(posts);
    expect(text).not.toMatch(/fxstreet/i);
    expect(posts.filter((p) => /<a\b|Read more/i.test(p.Content))).toEqual([]);
    expect(posts.filter((p) => p.Url !== null || p.Author.Url !== null)).toEqual([]);
  });

  it('name a market to watch the reaction in: “Reaction in EUR/USD”, never “in ECB”', () => {
    const reactions = new Set(
      posts.flatMap((p) => [...p.Content.matchAll(/Reaction in ([^<]+)</g)].map((m) => m[1])),
    );
    expect(reactions.has('ECB')).toBe(false);
    expect(reactions.has('China')).toBe(false);
    expect(reactions.has('EUR/USD')).toBe(true);
    const ecb = makePost(createRng('ecb'), 'en-US', NOW, {
      tag: 'ECB',
      title: { 'en-US': 'ECB holds' },
      body: { 'en-US': 'The ECB left rates unchanged.' },
    });
    expect(ecb.Content).toContain('Reaction in EUR/USD');
  });
});
