// Pure helpers the calendar leans on: flags from the service's codes, zone-correct times.
import { describe, expect, it } from 'vitest';
import { flagOf } from '../../../src/renderer/src/lib/flags.js';
import { countdown, dayKey, timeLabel } from '../../../src/renderer/src/lib/time.js';

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

  it('counts down to the next release', () => {
    expect(countdown(3_900_000, 0)).toBe('in 1h 05m');
    expect(countdown(0, 42_000)).toBe('42s ago');
  });
});
