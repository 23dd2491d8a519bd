// @vitest-environment jsdom
/**
 * A day with no releases (a Saturday, a holiday) still opens on itself: its header, the now
 * line and "No releases today — next: …", not the next weekday's rows with now hidden.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildItems, openingIndex, withNowLine } from '../../../src/renderer/src/lib/items.js';
import { ed, mount } from './harness.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// Friday's close, a quiet weekend, Monday's first release in Asia.
const rows = [
  ed(1, { name: 'Baker Hughes Rig Count', countryCode: 'US', dateUtc: '2026-11-27T18:00:00Z' }),
  ed(2, {
    name: 'NBS Manufacturing PMI',
    countryCode: 'CN',
    dateUtc: '2026-11-30T01:30:00Z',
  }),
  ed(3, { name: 'GDP (QoQ)', countryCode: 'CH', dateUtc: '2026-11-30T08:00:00Z' }),
];
const SATURDAY = Date.parse('2026-11-28T10:00:00Z');
const shape = (zone: string, now: number) =>
  withNowLine(buildItems(rows, zone), now, zone).map((it) =>
    it.kind === 'row' ? it.ed.name : it.kind === 'day' ? `day ${it.day}` : it.kind,
  );

describe('a day with no releases', () => {
  it('gets its header, the now line and a quiet-day line, between Friday and Monday', () => {
    expect(shape('UTC', SATURDAY)).toEqual([
      'day 2026-11-27',
      'Baker Hughes Rig Count',
      'day 2026-11-28',
      'now',
      'quiet-day',
      'day 2026-11-30',
      'NBS Manufacturing PMI',
      'GDP (QoQ)',
    ]);
    const items = withNowLine(buildItems(rows, 'UTC'), SATURDAY, 'UTC');
    const quiet = items.find((it) => it.kind === 'quiet-day');
    expect(quiet?.kind === 'quiet-day' && quiet.next?.name).toBe('NBS Manufacturing PMI');
    // the list opens on Saturday, not on Monday
    expect(items[openingIndex(items, SATURDAY, 'UTC')]).toMatchObject({ day: '2026-11-28' });
  });

  it('is judged by the display zone', () => {
    // Sunday 23:00 UTC: a quiet Sunday in UTC; Sunday 18:00 in New York, where Beijing's
    // 01:30 UTC print falls on Sunday evening (a row of today); Monday 08:00 in Tokyo.
    const sundayNight = Date.parse('2026-11-29T23:00:00Z');
    expect(shape('UTC', sundayNight).slice(2, 5)).toEqual(['day 2026-11-29', 'now', 'quiet-day']);
    expect(shape('America/New_York', sundayNight).slice(2, 5)).toEqual([
      'now',
      'day 2026-11-29',
      'NBS Manufacturing PMI',
    ]);
    expect(shape('Asia/Tokyo', sundayNight)).not.toContain('quiet-day');
  });

  it('says when the next release is, in the mounted calendar', async () => {
    vi.useFakeTimers({ now: SATURDAY, shouldAdvanceTime: true });
    mount(rows, {}, { clock: () => SATURDAY, settings: { timeZone: 'UTC' } });
    const line = await screen.findByTestId('quiet-day');
    expect(line.textContent).toBe('No releases today — next: CN NBS Manufacturing PMI, Mon 01:30');
    expect(screen.getAllByTestId('now-line')).toHaveLength(1);
  });
});
