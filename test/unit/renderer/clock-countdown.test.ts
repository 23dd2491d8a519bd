/** The calendar header's countdown: m:ss in the last hour, hours and minutes within a day. */
import { describe, expect, it } from 'vitest';
import { clockCountdown } from '../../../src/renderer/src/lib/time.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('clockCountdown', () => {
  it('reads m:ss under an hour, rounding a part second up (never "0:00" before the time)', () => {
    expect(clockCountdown(12 * MIN + 34 * S)).toBe('12:34');
    expect(clockCountdown(59 * MIN + 59 * S)).toBe('59:59');
    expect(clockCountdown(3 * MIN + 12 * S - 400)).toBe('3:12');
    expect(clockCountdown(42 * S)).toBe('0:42');
    expect(clockCountdown(1)).toBe('0:01');
  });

  it('reads hours and minutes from an hour to a day, then days and hours', () => {
    expect(clockCountdown(H)).toBe('1h 00m');
    expect(clockCountdown(3 * H + 5 * MIN + 30 * S)).toBe('3h 05m');
    expect(clockCountdown(23 * H + 59 * MIN)).toBe('23h 59m');
    expect(clockCountdown(4 * 24 * H + 23 * H + 10 * MIN)).toBe('4d 23h');
  });

  it('reads 0:00 once due or past', () => {
    expect(clockCountdown(0)).toBe('0:00');
    expect(clockCountdown(-5 * S)).toBe('0:00');
  });
});
