/** Records for the store tests and their child processes. */
import type { EventDate } from '../../../src/shared/domain.js';
import { eventDateFixture } from '../../fixtures/domain.js';

export function ed(id: string, over: Partial<EventDate> = {}): EventDate {
  return eventDateFixture({
    id,
    eventId: 'ev-' + id,
    dateUtc: '2026-11-20T13:30:00Z',
    consensus: 1,
    previous: 1,
    lastUpdated: 100,
    ...over,
  });
}
