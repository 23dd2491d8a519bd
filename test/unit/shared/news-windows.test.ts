/** News windows: the merge, the tray's countdown text on an injected clock, the shading test. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NEWS_WINDOW,
  countdown,
  inNewsWindow,
  newsWindowTitle,
  newsWindows,
} from '../../../src/shared/news-windows.js';
import type { Volatility } from '../../../src/shared/domain.js';

const T0 = Date.parse('2026-12-04T13:30:00Z'); // NFP
const MIN = 60_000;
const release = (id: string, name: string, at: number, volatility: Volatility = 'HIGH') => ({
  id,
  eventId: `ev-${id}`,
  name,
  countryCode: 'US',
  dateUtc: new Date(at).toISOString(),
  volatility,
});
const day = [
  release('nfp', 'Nonfarm Payrolls', T0),
  release('ue', 'Unemployment Rate', T0),
  release('ism', 'ISM Services PMI', T0 + 150 * MIN),
  release('claims', 'Continuing Jobless Claims', T0 + 60 * MIN, 'MEDIUM'),
];
const on = { ...DEFAULT_NEWS_WINDOW, enabled: true };

describe('news windows', () => {
  it('N minutes either side of each covered release, merged where they overlap', () => {
    const windows = newsWindows(day, on);
    expect(windows.map((w) => [w.start - T0, w.end - T0, w.releases.map((r) => r.id)])).toEqual([
      [-2 * MIN, 2 * MIN, ['nfp', 'ue']],
      [148 * MIN, 152 * MIN, ['ism']],
    ]);
    // the impacts covered and N are settings
    const wider = newsWindows(day, {
      ...on,
      minutesBefore: 5,
      minutesAfter: 10,
      impacts: ['HIGH', 'MEDIUM'],
    });
    expect(wider.map((w) => [w.start - T0, w.end - T0])).toEqual([
      [-5 * MIN, 10 * MIN],
      [55 * MIN, 70 * MIN],
      [145 * MIN, 160 * MIN],
    ]);
    expect(newsWindows(day, DEFAULT_NEWS_WINDOW)).toEqual([]); // off by default
  });

  it('the tray counts down to the next window, then the time left in it', () => {
    const windows = newsWindows(day, on);
    const at = (ms: number) => newsWindowTitle(windows, T0 + ms);
    expect(at(-107 * MIN)).toBe('US NFP and 1 more in 1:45');
    expect(at(-14 * MIN - 30_000)).toBe('US NFP and 1 more in 13m');
    expect(at(-2 * MIN - 40_000)).toBe('US NFP and 1 more in 40s');
    expect(at(-2 * MIN)).toBe('US NFP and 1 more window · 4m left');
    expect(at(90_000)).toBe('US NFP and 1 more window · 30s left');
    // closed: on to the next one
    expect(at(2 * MIN + 1)).toBe('US ISM Services in 2:26');
    expect(at(200 * MIN)).toBeNull();
    expect(countdown(3_600_000)).toBe('1:00');
    expect(countdown(59 * MIN + 1)).toBe('1:00');
  });

  it('names a window in words, each short name once (“US CPI”, not “US CPI +1”)', () => {
    const cpi = [
      release('mom', 'Consumer Price Index (MoM)', T0),
      release('yoy', 'Consumer Price Index (YoY)', T0),
    ];
    const title = (rows: typeof cpi) => newsWindowTitle(newsWindows(rows, on), T0 - MIN);
    expect(title(cpi)).toBe('US CPI window · 3m left');
    expect(title([...cpi, release('claims', 'Initial Jobless Claims', T0)])).toBe(
      'US CPI and 1 more window · 3m left',
    );
  });

  it('says whether a moment is inside a window (the calendar shades those rows)', () => {
    const windows = newsWindows(day, on);
    expect([T0 - 2 * MIN, T0, T0 + 2 * MIN].map((t) => inNewsWindow(windows, t))).toEqual([
      true,
      true,
      true,
    ]);
    expect(inNewsWindow(windows, T0 + 60 * MIN)).toBe(false); // the MEDIUM claims
  });
});
