/** The world a countdown test makes itself: its own HIGH releases, and nothing ahead of them. */
import { expect } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import { sim, type E2E } from './harness.js';

/** An event of its own (a speech or not) and one HIGH release `inMs` from now. */
export async function highRelease(
  e: E2E,
  name: string,
  inMs: number,
  { isSpeech = false, ...fields }: Partial<EventDate> = {},
): Promise<EventDate> {
  const event = await sim<{ id: string }>(e, 'POST', '/_sim/events', {
    name,
    countryCode: 'US',
    currencyCode: 'USD',
    volatility: 'HIGH',
    isSpeech,
  });
  return sim<EventDate>(e, 'POST', '/_sim/event-dates', {
    eventId: event.id,
    name,
    dateUtc: new Date(Date.now() + inMs).toISOString(),
    volatility: 'HIGH',
    isAllDay: false,
    actual: null,
    ...fields,
  });
}

/** No unprinted HIGH release the header would count down to (`counts`) within `inMs` and a minute. */
export async function expectNoHighAhead(
  e: E2E,
  inMs: number,
  counts: (r: EventDate) => boolean,
): Promise<void> {
  const ahead = await e.service.api.listEventDates({
    from: new Date().toISOString(),
    to: new Date(Date.now() + inMs + 60_000).toISOString(),
  });
  expect(ahead.filter((r) => r.volatility === 'HIGH' && r.actual === null && counts(r))).toEqual(
    [],
  );
}
