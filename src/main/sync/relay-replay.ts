/**
 * A replayed event from the relay (`event: replay`, sent when the desk re-sends a time
 * range to this trader): `{"id", "receivedAt", "body"}` in its data. It carries no `id:`
 * line and never moves the cursor; it is applied like any notification, which is
 * idempotent — one already applied (same key, same `lastUpdated`) changes nothing and
 * alerts nothing; one this desktop missed is applied.
 */
import { z } from 'zod';
import { RELAY_EVENT_ID } from '../../shared/relay-ids.js';

const replayed = z.object({
  id: z.string().regex(RELAY_EVENT_ID),
  receivedAt: z.number().int().min(0).nullable().optional(),
  body: z.unknown(),
});

export interface ReplayedItem {
  id: string;
  payload: unknown;
  receivedAt: number | null;
}

/** The replayed event in an SSE message's data, or null when it is not one. */
export function parseReplayed(data: string): ReplayedItem | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const r = replayed.safeParse(value);
  if (!r.success || r.data.body === undefined) return null;
  return { id: r.data.id, payload: r.data.body, receivedAt: r.data.receivedAt ?? null };
}
