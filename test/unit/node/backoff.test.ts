/** The one backoff (src/node/backoff.ts) every retrying part uses. */
import { describe, expect, it } from 'vitest';
import {
  backoffCeiling,
  backoffDelay,
  retryAfterMs,
  retryAfterOf,
  type BackoffPolicy,
} from '../../../src/node/backoff.js';

const exp: BackoffPolicy = { baseMs: 250, maxMs: 8_000, jitter: 'full' };

describe('backoffDelay', () => {
  it('doubles the ceiling per attempt up to the cap, with full jitter below it', () => {
    const top = (n: number) => backoffDelay(exp, n, { random: () => 1 });
    expect([0, 1, 2, 3, 4, 5, 6, 30, 5000].map(top)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 8000, 8000, 8000,
    ]);
    expect(backoffDelay(exp, 3, { random: () => 0 })).toBe(0);
    expect(backoffDelay(exp, 3, { random: () => 0.5 })).toBe(1000);
  });

  it('equal jitter never retries at once; none follows the schedule, the last step repeating', () => {
    const equal: BackoffPolicy = { ...exp, jitter: 'equal' };
    expect(backoffDelay(equal, 2, { random: () => 0 })).toBe(500);
    expect(backoffDelay(equal, 2, { random: () => 1 })).toBe(1000);
    const schedule: BackoffPolicy = {
      baseMs: 0,
      maxMs: Infinity,
      jitter: 'none',
      schedule: [5_000, 30_000, 120_000],
    };
    expect([0, 1, 2, 3].map((n) => backoffDelay(schedule, n))).toEqual([
      5_000, 30_000, 120_000, 120_000,
    ]);
  });

  it('a factor stretches ceiling and cap (a rejected token retries slowly)', () => {
    expect(backoffCeiling(exp, 0, 10)).toBe(2_500);
    expect(backoffCeiling(exp, 20, 10)).toBe(80_000);
  });

  it("the server's Retry-After wins over the computed delay, capped", () => {
    expect(backoffDelay(exp, 0, { retryAfterMs: 3_000 })).toBe(3_000);
    expect(backoffDelay(exp, 0, { retryAfterMs: 3_600_000 })).toBe(8_000);
    expect(backoffDelay({ ...exp, maxRetryAfterMs: 30_000 }, 0, { retryAfterMs: 45_000 })).toBe(
      30_000,
    );
    expect(backoffDelay(exp, 2, { retryAfterMs: null, random: () => 1 })).toBe(1_000);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and dates, and ignores nonsense', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('is read from an error that kept its response headers', () => {
    expect(retryAfterOf({ headers: { 'retry-after': '4' } })).toBe(4_000);
    expect(retryAfterOf(new Error('offline'))).toBeNull();
    expect(retryAfterOf('nope')).toBeNull();
  });
});
