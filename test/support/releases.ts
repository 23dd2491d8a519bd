/**
 * The releases a test needs, made through the simulator's control API relative to now.
 * What the demo schedule happens to hold at the wall-clock date (nothing on a weekend, a
 * holiday's gap) is no test's business: a test that needs a HIGH release soon makes one.
 */
import type { EventDate } from '../../src/shared/domain.js';

export async function simControl<T>(simUrl: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${simUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`simulator ${method} ${path} → ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * A new, pending HIGH-impact release `inMs` from now, of an event of its own (so "the next
 * release of the watched event" is this one, whatever the demo week holds), with a
 * consensus and a previous value.
 */
export async function createHighRelease(
  simUrl: string,
  inMs: number,
  fields: { name?: string; consensus?: number; previous?: number } = {},
): Promise<EventDate> {
  const event = await simControl<{ id: string }>(simUrl, 'POST', '/_sim/events', {
    name: fields.name ?? 'Test Manufacturing PMI',
    countryCode: 'US',
    currencyCode: 'USD',
    volatility: 'HIGH',
  });
  return simControl<EventDate>(simUrl, 'POST', '/_sim/event-dates', {
    eventId: event.id,
    dateUtc: new Date(Date.now() + inMs).toISOString(),
    volatility: 'HIGH',
    isAllDay: false,
    actual: null,
    consensus: fields.consensus ?? 51.5,
    previous: fields.previous ?? 50.2,
  });
}
