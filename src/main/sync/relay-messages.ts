/**
 * What the relay's stream messages say, read and checked (relay-consumer.ts acts on them):
 * a notification's id and payload, the reason a node cut the stream off, the store's
 * refusal, and the oldest id a reset can offer. Control messages that do not parse are
 * read as saying nothing; a notification's body that is not JSON stays data.
 */
import { z } from 'zod';
import { RELAY_EVENT_ID, compareEventIds } from '../../shared/relay-ids.js';
import type { SseMessage } from './sse-reader.js';

const unavailableData = z.looseObject({ reason: z.string().max(500) });
const storeData = z.looseObject({ refusing: z.string().max(500).nullable() });
const resetData = z.looseObject({
  oldestId: z.union([z.string(), z.number()]).nullable().optional(),
});

export interface RelayItem {
  id: string;
  payload: unknown;
  receivedAt: number | null;
}

/** A notification message after `cursor` → its id and payload, or null for anything to skip. */
export function notificationItem(msg: SseMessage, cursor: string | null): RelayItem | null {
  if (msg.event !== undefined && msg.event !== 'notification' && msg.event !== 'message')
    return null;
  const id = msg.id ?? '';
  if (!RELAY_EVENT_ID.test(id)) return null;
  if (cursor !== null && compareEventIds(id, cursor) <= 0) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(msg.data);
  } catch {
    // Kept as data: the applier reports it as invalid and the cursor moves past it.
    payload = { type: '__invalid__', data: msg.data };
  }
  return { id, payload, receivedAt: msg.receivedAt };
}

/** The reason of an `event: unavailable`, or plain words when it has none. */
export function unavailableReason(data: string): string {
  try {
    return unavailableData.parse(JSON.parse(data)).reason;
  } catch {
    return 'no reason given';
  }
}

/** What an `event: store` says the relay refuses (null: it takes webhooks), or undefined. */
export function storeRefusing(data: string): string | null | undefined {
  try {
    return storeData.parse(JSON.parse(data)).refusing;
  } catch {
    return undefined;
  }
}

/** The oldest id an `event: reset` says the relay still has (null when it says none). */
export function resetOldestId(data: string): string | number | null {
  try {
    return resetData.parse(JSON.parse(data)).oldestId ?? null;
  } catch {
    return null; // the reset itself is what matters
  }
}
