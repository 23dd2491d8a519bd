/**
 * Relay event ids are opaque strings: integers from a SQLite relay ("42"), stream ids from
 * a Redis relay ("1700000000000-3"). Within one relay log they are ordered; this orders
 * either form, which is all a reader needs to skip what it already applied.
 */
export function compareEventIds(a: string, b: string): number {
  const [am = '0', as = '0'] = a.split('-');
  const [bm = '0', bs = '0'] = b.split('-');
  return Number(am) - Number(bm) || Number(as) - Number(bs);
}

/** A SQLite relay's id: its log's integer row id. */
export const SQLITE_EVENT_ID = /^\d{1,15}$/;
/** A Redis relay's id: the stream entry id, milliseconds-sequence. */
export const STREAM_EVENT_ID = /^\d{1,15}-\d{1,15}$/;
/** The shape a relay id must have, either form (checked where ids cross a boundary). */
export const RELAY_EVENT_ID = /^\d{1,15}(-\d{1,15})?$/;
