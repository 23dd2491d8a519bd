/**
 * The delivery log: what the relay received in a time range, when, and by how many
 * desktops it has been applied — from presence, where a desktop's last applied id covers
 * every event up to it (desktops apply strictly in order).
 */
import { compareIds, type EventLog, type StoredEvent } from '../../log/event-log.js';
import { PAGE_BYTES } from '../../stream/sse-hub.js';
import type { PresenceStore } from '../presence/presence-store.js';

export interface DeliveryRow {
  id: string;
  receivedAt: number;
  type: string;
  /** Desktops whose last applied id is this one or later. */
  appliedBy: number;
  /** Desktops known to presence, for "applied by 3 of 4". */
  desktops: number;
}

export interface DeliveryLog {
  events: DeliveryRow[];
  /** More events in the range than listed. */
  truncated: boolean;
}

/** Most events listed per request; `truncated` says there are more. */
export const LOG_LIMIT = 1000;
/** Pages read at most (the log is read in id order from just before the range). */
const MAX_PAGES = 500;

/** A time as ISO 8601 or "30m"/"2h"/"1d" ago; null when it is neither. */
export function parseWhen(raw: string, now: number): number | null {
  const rel = /^(\d{1,5})([mhd])$/.exec(raw);
  if (rel) return now - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'm'];
  if (!/^\d{4}-\d\d-\d\d/.test(raw)) return null;
  const t = Date.parse(raw);
  return Number.isFinite(t) ? t : null;
}

/**
 * The events received in [since, until], in id order, read page by page from just before
 * the range; `false` from `take` stops the reading.
 */
export async function readRange(
  events: EventLog,
  since: number,
  until: number,
  take: (e: StoredEvent) => boolean,
): Promise<void> {
  let cursor = await events.seek(since);
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await events.after(cursor, 1000, PAGE_BYTES);
    if (batch.length === 0) return;
    for (const e of batch) {
      if (e.receivedAt < since) continue;
      if (e.receivedAt > until || !take(e)) return;
    }
    cursor = batch.at(-1)?.id ?? cursor;
  }
}

export async function deliveryLog(
  events: EventLog,
  presence: PresenceStore,
  since: number,
  until: number,
): Promise<DeliveryLog> {
  const known = await presence.list();
  const applied = known
    .map((p) => p.appliedId)
    .filter((id): id is string => id !== null && id !== '0');
  const desktops = known.length;
  const rows: DeliveryRow[] = [];
  let truncated = false;
  await readRange(events, since, until, (e) => {
    if (rows.length === LOG_LIMIT) return !(truncated = true);
    const appliedBy = applied.filter((id) => compareIds(id, e.id) >= 0).length;
    rows.push({ id: e.id, receivedAt: e.receivedAt, type: e.type, appliedBy, desktops });
    return true;
  });
  return { events: rows, truncated };
}
