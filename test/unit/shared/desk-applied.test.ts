/**
 * When a desktop applied an event, from the checkpoints it reports (desk-applied.ts): the
 * first one at or past the event, exact only when an earlier one shows it was not applied
 * before; null when no checkpoint reaches it. Ids of both backends compare in log order.
 */
import { describe, expect, it } from 'vitest';
import { appliedTimeOf } from '../../../src/shared/desk-applied.js';

describe('appliedTimeOf', () => {
  const history = [
    { id: '0', at: 1_000 }, // connected with nothing applied
    { id: '7', at: 2_000 },
    { id: '12', at: 3_000 },
  ];

  it('finds the batch that applied an event, and says when the history begins after it', () => {
    expect(appliedTimeOf(history, '7')).toEqual({ at: 2_000, exact: true });
    expect(appliedTimeOf(history, '9')).toEqual({ at: 3_000, exact: true });
    expect(appliedTimeOf(history, '13')).toBeNull();
    // Ten comes after 9 in the log, not before it as text would have it.
    expect(
      appliedTimeOf(
        [
          { id: '9', at: 1 },
          { id: '10', at: 2 },
        ],
        '10',
      ),
    ).toEqual({
      at: 2,
      exact: true,
    });
    // The oldest checkpoint kept is past the event: applied by then, time not known.
    expect(appliedTimeOf(history.slice(1), '5')).toEqual({ at: 2_000, exact: false });
    expect(appliedTimeOf([], '1')).toBeNull();
  });

  it('orders Redis stream ids by time, then sequence', () => {
    const redis = [
      { id: '1700000000000-0', at: 10 },
      { id: '1700000000005-2', at: 20 },
    ];
    expect(appliedTimeOf(redis, '1700000000005-1')).toEqual({ at: 20, exact: true });
    expect(appliedTimeOf(redis, '1700000000005-3')).toBeNull();
  });
});
