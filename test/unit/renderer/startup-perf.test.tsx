// @vitest-environment jsdom
/** What keeps the calendar fast at start-up and while it sits open (issue #26, item 15). */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { countBefore } from '../../../src/renderer/src/lib/use-now-passing.js';
import { ed, mount, now } from './harness.js';

afterEach(cleanup);

const inMinutes = (m: number) => new Date(now + m * 60_000).toISOString();

describe('start-up requests', () => {
  it('asks for the calendar once: the countdown reads the same rows', async () => {
    const t = mount([
      ed(1, { name: 'Printed', dateUtc: inMinutes(-30), actual: 1 }),
      ed(2, { name: 'Coming', dateUtc: inMinutes(45), volatility: 'HIGH' }),
    ]);
    const next = await screen.findByTestId('next-release');
    expect(next.textContent).toContain('Coming');
    const lists = t.calls.filter(([m]) => m === 'listEventDates');
    expect(lists).toHaveLength(1);
  });

  it('sends the news and category requests only after the calendar’s rows', async () => {
    const t = mount([ed(1, { name: 'Coming', dateUtc: inMinutes(45) })]);
    await screen.findByText('Coming');
    await waitFor(() => expect(t.calls.some(([m]) => m === 'listPosts')).toBe(true));
    const order = t.calls.map(([m]) => m);
    const rows = order.indexOf('listEventDates');
    expect(rows).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('listPosts')).toBeGreaterThan(rows);
    expect(order.indexOf('listCategories')).toBeGreaterThan(rows);
    // one status and settings load at start
    expect(order.filter((m) => m === 'getSettings')).toHaveLength(1);
  });
});

describe('the now line’s clock', () => {
  it('counts the release times already passed', () => {
    const times = Float64Array.from([10, 20, 20, 30]);
    expect(countBefore(times, 5)).toBe(0);
    expect(countBefore(times, 20)).toBe(1);
    expect(countBefore(times, 21)).toBe(3);
    expect(countBefore(times, 99)).toBe(4);
  });
});
