// Pure helpers the calendar leans on: flags from the service's codes, zone-correct times.
import { describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { buildItems, buildItemsLinear, openingIndex } from '../../../src/renderer/src/lib/items.js';
import { flagOf } from '../../../src/renderer/src/lib/flags.js';
import { countdown, dateTimeLabel, dayKey, timeLabel } from '../../../src/renderer/src/lib/time.js';

describe('flags', () => {
  it('maps the non-ISO codes the service uses', () => {
    expect(flagOf('UK')).toBe('🇬🇧');
    expect(flagOf('EMU')).toBe('🇪🇺');
    expect(flagOf('US')).toBe('🇺🇸');
    expect(flagOf('XYZ')).toBe('🏳');
  });
});

describe('times', () => {
  it('follows daylight saving in the chosen zone', () => {
    // 8:30 in New York is 13:30 UTC in winter (EST) and 12:30 UTC in summer (EDT).
    expect(timeLabel('2026-01-09T13:30:00Z', 'America/New_York', 'h23')).toBe('08:30');
    expect(timeLabel('2026-07-02T12:30:00Z', 'America/New_York', 'h23')).toBe('08:30');
    expect(timeLabel('2026-07-02T12:30:00Z', 'UTC', 'h12')).toMatch(/^12:30\s?pm$/i);
  });

  it('groups by the local day, not the UTC day', () => {
    expect(dayKey('2026-03-10T23:30:00Z', 'UTC')).toBe('2026-03-10');
    expect(dayKey('2026-03-10T23:30:00Z', 'Asia/Tokyo')).toBe('2026-03-11');
  });

  it('keeps one formatter per kind, zone and hour cycle', () => {
    expect(dateTimeLabel('2026-07-02T12:30:00Z', 'UTC', 'h23')).toBe('2 Jul 2026, 12:30');
    expect(dateTimeLabel('2026-07-02T12:30:00Z', 'UTC', 'h12')).toMatch(/^2 Jul 2026, 12:30\sPM$/);
    expect(dateTimeLabel('2026-07-02T12:30:00Z', 'Asia/Tokyo', 'h23')).toBe('2 Jul 2026, 21:30');
    expect(timeLabel('2026-07-02T12:30:00Z', 'UTC', 'h23')).toBe('12:30');
  });

  it('counts down to the next release', () => {
    expect(countdown(3_900_000, 0)).toBe('in 1h 05m');
    expect(countdown(0, 42_000)).toBe('42s ago');
  });
});

const row = (i: number, dateUtc: string): EventDate =>
  ({ id: `r${i}`, dateUtc }) as unknown as EventDate;

describe('calendar items', () => {
  // 2,000 releases over three weeks around daylight-saving changes, at random minutes.
  const sorted = (start: string, seed: number) => {
    let x = seed;
    const rnd = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const t0 = Date.parse(start);
    return Array.from({ length: 2000 }, () => t0 + Math.floor(rnd() * 21 * 86_400_000))
      .sort((a, b) => a - b)
      .map((t, i) => row(i, new Date(t).toISOString()));
  };

  it('groups by local day exactly as one format per row would, across DST and odd offsets', () => {
    const zones = [
      'UTC',
      'system',
      'America/New_York',
      'Europe/London',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'America/Santiago',
    ];
    for (const zone of zones)
      for (const start of [
        '2026-03-01T00:00:00Z',
        '2026-10-20T00:00:00Z',
        '2026-03-25T00:00:00Z',
      ]) {
        const rows = sorted(start, start.length + zone.length);
        expect(buildItems(rows, zone), `${zone} ${start}`).toEqual(buildItemsLinear(rows, zone));
      }
  });

  it('handles the edges: no rows, one row, all rows on one day, rows out of order', () => {
    expect(buildItems([], 'UTC')).toEqual([]);
    const one = [row(1, '2026-03-10T12:00:00Z')];
    expect(buildItems(one, 'UTC').map((i) => i.kind)).toEqual(['day', 'row']);
    const sameDay = Array.from({ length: 50 }, (_, i) =>
      row(i, new Date(Date.parse('2026-03-10T00:00:00Z') + i * 60_000).toISOString()),
    );
    expect(buildItems(sameDay, 'UTC').filter((i) => i.kind === 'day')).toHaveLength(1);
    const unordered = [
      row(1, '2026-03-10T12:00:00Z'),
      row(2, '2026-03-11T12:00:00Z'),
      row(3, '2026-03-10T13:00:00Z'),
    ];
    expect(buildItems(unordered, 'UTC')).toEqual(buildItemsLinear(unordered, 'UTC'));
    expect(buildItems(unordered, 'UTC').filter((i) => i.kind === 'day')).toHaveLength(3);
  });
});

describe('where the calendar opens', () => {
  const rows = [
    row(1, '2026-11-23T08:30:00Z'),
    row(2, '2026-11-23T23:30:00Z'),
    row(3, '2026-11-24T01:30:00Z'),
    row(4, '2026-11-25T13:30:00Z'),
    row(5, '2026-11-30T13:30:00Z'),
  ];
  const dayAt = (now: string, zone = 'UTC') => {
    const items = buildItems(rows, zone);
    const it = items[openingIndex(items, Date.parse(now), zone)];
    return it?.kind === 'day' ? it.day : null;
  };

  it('opens at today, also in the minutes after midnight (not at yesterday’s first print)', () => {
    expect(dayAt('2026-11-23T12:00:00Z')).toBe('2026-11-23');
    expect(dayAt('2026-11-24T00:08:00Z')).toBe('2026-11-24');
    // Midnight in New York is 05:00 UTC: still the 23rd there until then.
    expect(dayAt('2026-11-24T00:08:00Z', 'America/New_York')).toBe('2026-11-23');
  });

  it('opens at the next day with releases on a quiet day, at the last day when all printed', () => {
    expect(dayAt('2026-11-24T12:00:00Z')).toBe('2026-11-24');
    expect(dayAt('2026-11-28T12:00:00Z')).toBe('2026-11-30');
    expect(dayAt('2026-12-05T12:00:00Z')).toBe('2026-11-30');
  });
});
