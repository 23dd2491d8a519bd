/**
 * A `lastUpdated` stamp (seconds) further in the future than clock skew explains is not
 * the service's: a forged or replayed notification put it there. Such a stamp carries
 * no weight — it does not make a record or a deletion "newer" than what the service
 * later returns, so the next read from the service (safety net, backfill, confirmation)
 * puts the service's values back.
 */
export const MAX_CLOCK_SKEW_SEC = 120;

export function trustedStamp(lastUpdatedSec: number, nowMs: number): boolean {
  return lastUpdatedSec <= nowMs / 1000 + MAX_CLOCK_SKEW_SEC;
}
