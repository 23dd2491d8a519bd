/** Records for the store tests and their child processes. */
import type { EventDate } from '../../../src/shared/domain.js';

export function ed(id: string, over: Partial<EventDate> = {}): EventDate {
  return {
    id,
    eventId: 'ev-' + id,
    dateUtc: '2026-11-20T13:30:00Z',
    periodDateUtc: null,
    periodType: 'MONTH',
    actual: null,
    revised: null,
    consensus: 1,
    ratioDeviation: null,
    previous: 1,
    isBetterThanExpected: null,
    name: 'Nonfarm Payrolls',
    countryCode: 'US',
    currencyCode: 'USD',
    unit: null,
    potency: 'K',
    volatility: 'HIGH',
    isAllDay: false,
    isTentative: false,
    isPreliminary: false,
    isReport: false,
    isSpeech: false,
    lastUpdated: 100,
    ...over,
  };
}
