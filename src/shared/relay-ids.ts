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

/** The shape a relay id must have (checked where ids cross a boundary). */
export const RELAY_EVENT_ID = /^\d{1,15}(-\d{1,15})?$/;
