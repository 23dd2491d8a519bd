import { describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { diffEventDate, mergeChanges } from '../../../src/main/sync/diff.js';
import { eventDateFixture } from '../../fixtures/domain.js';

const base: EventDate = eventDateFixture({ id: 'ed1', eventId: 'e1', lastUpdated: 100 });

describe('diffEventDate', () => {
  it('reports a new occurrence as added', () => {
    expect(diffEventDate(null, base, 'poll').map((c) => c.kind)).toEqual(['eventDateAdded']);
  });

  it('reports an occurrence first seen already printed as added and released', () => {
    const printed = { ...base, actual: 4.7 };
    expect(diffEventDate(null, printed, 'backfill').map((c) => c.kind)).toEqual([
      'eventDateAdded',
      'released',
    ]);
  });

  it('reports a print, a revision and a reschedule as separate changes', () => {
    const next = {
      ...base,
      actual: 275,
      revised: 210,
      isBetterThanExpected: true,
      dateUtc: '2026-11-06T14:00:00Z',
    };
    const kinds = diffEventDate(base, next, 'relay').map((c) => c.kind);
    expect(kinds).toEqual(['released', 'revised', 'rescheduled']);
  });

  it('reports other field changes with their keys, and nothing when nothing changed', () => {
    const next = { ...base, consensus: 190 };
    const changes = diffEventDate(base, next, 'poll');
    expect(changes).toEqual([
      { kind: 'eventDateUpdated', eventDate: next, keys: ['consensus'], source: 'poll' },
    ]);
    expect(diffEventDate(base, { ...base }, 'poll')).toEqual([]);
  });

  it('calls a changed actual after the print a correction, once, with the figure it replaced', () => {
    const printed = { ...base, actual: 234, isBetterThanExpected: true };
    const fixed = { ...printed, actual: 275, ratioDeviation: 2.1 };
    expect(diffEventDate(printed, fixed, 'webhook')).toEqual([
      { kind: 'corrected', eventDate: fixed, previousActual: 234, source: 'webhook' },
    ]);
    // the same change delivered again changes nothing
    expect(diffEventDate(fixed, { ...fixed }, 'webhook')).toEqual([]);
  });

  it('does not call the same instant in another notation a reschedule', () => {
    expect(diffEventDate(base, { ...base, dateUtc: '2026-11-06T13:30:00.000Z' }, 'poll')).toEqual(
      [],
    );
  });
});

describe('mergeChanges', () => {
  it('applies typed values, keeps unknown keys in raw, and never moves lastUpdated back', () => {
    const { eventDate, raw } = mergeChanges(
      base,
      { id: 'ed1', extra: 1 },
      [
        { key: 'actual', value: 275 },
        { key: 'revised', value: '210' },
        { key: 'dateUtc', value: 'not a date' },
        { key: 'brandNewField', value: 'x' },
      ],
      150,
    );
    expect(eventDate.actual).toBe(275);
    expect(eventDate.revised).toBe(210);
    expect(eventDate.dateUtc).toBe(base.dateUtc);
    expect(eventDate.lastUpdated).toBe(150);
    expect(raw).toMatchObject({ extra: 1, brandNewField: 'x', actual: 275 });
    expect(mergeChanges(base, {}, [], 50).eventDate.lastUpdated).toBe(100);
  });
});
