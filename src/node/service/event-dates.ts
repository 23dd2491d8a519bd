/**
 * `GET {calendar}/{lang}/api/v1/eventDates/{from}/{to}` for code that is not the app (the
 * relay's webcal feed): the shared HTTP client (pooled, retries with backoff) and token
 * manager (401 → drop the token, refresh once, retry once), and the shared wire schema,
 * so an event date means the same here as in the app's store. An invalid item is skipped.
 */
import type { EventDate } from '../../shared/domain.js';
import { eventDateWireSchema, toEventDate } from '../../shared/wire.js';
import { HttpError, type HttpClient } from '../http/client.js';
import type { TokenManager } from '../oauth/token-manager.js';
import { ResponseShapeError } from './errors.js';

export interface EventDatesSource {
  calendarUrl: () => string;
  language?: string;
  tokens: TokenManager;
  http: HttpClient;
}

export async function fetchEventDates(
  src: EventDatesSource,
  from: Date,
  to: Date,
): Promise<{ items: EventDate[]; skipped: number }> {
  const base = src.calendarUrl().replace(/\/+$/, '');
  const enc = encodeURIComponent;
  const url = `${base}/${enc(src.language ?? 'en')}/api/v1/eventDates/${enc(from.toISOString())}/${enc(to.toISOString())}`;
  const send = async () =>
    src.http.requestJson({
      url,
      headers: { authorization: await src.tokens.getAuthorization('calendar') },
    });
  let json: unknown;
  try {
    json = (await send()).json;
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 401) throw err;
    src.tokens.invalidate('calendar');
    json = (await send()).json;
  }
  if (!Array.isArray(json)) throw new ResponseShapeError('eventDates', 'expected an array');
  const items: EventDate[] = [];
  for (const item of json) {
    const r = eventDateWireSchema.safeParse(item);
    if (r.success) items.push(toEventDate(r.data));
  }
  return { items, skipped: json.length - items.length };
}
