/**
 * Issue #45, item 3: every event of the demo's calendar carries its context — source, what
 * it measures, frequency, usual effect, why traders care — each field filled, in words of
 * its own: no two events share a "why traders care" or a "measures" sentence, and none
 * keeps the filler line the lower-impact events had ("… a regular release for EMU").
 */
import { describe, expect, it } from 'vitest';
import { generateCalendar } from '../../../src/simulator/data/calendar.js';
import { INDICATORS } from '../../../src/simulator/data/indicators.js';

const FIELDS = ['Source', 'Measures', 'Frequency', 'Usual effect', 'Why traders care'];
/** A fixed moment: the calendar is built for it, not for the day the test runs. */
const NOW = Date.UTC(2026, 11, 2, 14, 5);
const { events } = generateCalendar('event-context', NOW);

type Described = { label: string; fields: [string, string][] };

/** Each calendar event's description, split into its "Label: text" lines. */
const described: Described[] = events.map(({ event }) => ({
  label: `${event.countryCode} ${event.name}`,
  fields: event.description.split('\n').map((line) => {
    const colon = line.indexOf(': ');
    return colon > 0 ? [line.slice(0, colon), line.slice(colon + 2)] : ['', line];
  }),
}));

/** The labels of events whose `field` text another event has too. */
function sharing(field: string): string[] {
  const byText = new Map<string, string[]>();
  for (const d of described) {
    const text = d.fields.find(([label]) => label === field)?.[1] ?? '';
    byText.set(text, [...(byText.get(text) ?? []), d.label]);
  }
  return [...byText.values()].filter((labels) => labels.length > 1).map((l) => l.join(' = '));
}

describe("the demo's event context", () => {
  it('covers every event of the calendar', () => {
    expect(events).toHaveLength(INDICATORS.length);
  });

  it('gives each event the five fields, in order, none empty', () => {
    const bad = described
      .filter(
        (d) =>
          d.fields.map(([label]) => label).join('|') !== FIELDS.join('|') ||
          d.fields.some(([, text]) => text.trim().length < 3),
      )
      .map((d) => d.label);
    expect(bad).toEqual([]);
  });

  it('says why traders care in a sentence of its own for each event', () => {
    expect(sharing('Why traders care')).toEqual([]);
  });

  it('says what each event measures in a sentence of its own', () => {
    expect(sharing('Measures')).toEqual([]);
  });

  it('starts each source with a capital, as its own line', () => {
    const lower = described.filter((d) => /^the /.test(d.fields[0]?.[1] ?? '')).map((d) => d.label);
    expect(lower).toEqual([]);
  });

  it('keeps none of the old filler', () => {
    const filler = events
      .filter(({ event }) => /a regular release for|a weekly release for/i.test(event.description))
      .map(({ event }) => `${event.countryCode} ${event.name}`);
    expect(filler).toEqual([]);
  });

  it('says a speech has no figure, and a holiday or a budget how often it comes', () => {
    const field = (key: string, name: string) => {
      const ind = INDICATORS.find((i) => i.key === key)!;
      const line = ind.description.split('\n').find((l) => l.startsWith(`${name}: `));
      return line?.slice(name.length + 2);
    };
    const speeches = INDICATORS.filter((i) => i.frequency === 'adhoc');
    expect(speeches.length).toBeGreaterThan(10);
    for (const s of speeches) expect(field(s.key, 'Usual effect')).toMatch(/^No figure; /);
    expect(field('us-holiday', 'Frequency')).toBe('Once a year, the fourth Thursday of November');
    expect(field('uk-election', 'Frequency')).toBe('Once a year, usually in the autumn');
    expect(field('us-weekly-5', 'Usual effect')).toMatch(/^No forecast; /);
  });
});
