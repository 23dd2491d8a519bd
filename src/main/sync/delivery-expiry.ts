/**
 * "Webhooks still arrive" is true only for DELIVERY_FRESH_MS after the last one. Nothing
 * else changes when that window closes, so without a timer "Live — API unavailable" would
 * stay on screen until some unrelated status update: this wakes the status at the edge.
 */
import type { Timers } from '../../shared/timers.js';
import { DELIVERY_FRESH_MS } from './connection-state.js';

export class DeliveryExpiry {
  private timer: unknown = null;

  constructor(
    private readonly timers: Timers,
    private readonly onExpire: () => void,
  ) {}

  /** A webhook arrived while the API fails: re-derive the state once its freshness ends. */
  arm(): void {
    this.stop();
    // One millisecond past the edge: the derivation counts the edge itself as fresh.
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.onExpire();
    }, DELIVERY_FRESH_MS + 1);
  }

  stop(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
