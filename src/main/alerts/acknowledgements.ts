/**
 * The core owns each notification until a surface acknowledges it. Sending stamps the
 * receipts' `sentAt` and arms a short deadline; the first `alertShown` of a surface (the
 * window's toast or sound, the page's own alert, the browser's or the OS's notification)
 * stamps `shownAt` and `shownBy`. With none by the deadline, `onDidMiss` fires: the host's
 * fallback shows it, and the receipt keeps `fallbackAt` with `shownAt` still null until a
 * fallback surface acknowledges it — a receipt never says "shown" on the send alone.
 */
import type { AlertShown, AlertSurface, NativeNotification } from '../../shared/domain.js';
import { Emitter, type Event } from '../../shared/event.js';
import type { Timers } from '../../shared/timers.js';

/** What the receipts need of the store. */
export interface AckStore {
  markAlertsSent(ids: number[], at: number): void;
  markAlertsShown(ids: number[], at: number, surface: AlertSurface): void;
  markAlertsFallback(ids: number[], at: number): void;
}

export interface AcknowledgementsOptions {
  store: AckStore;
  now: () => number;
  timers: Timers;
  /** How long a surface has to acknowledge before the host falls back (1 s by default). */
  deadlineMs?: number;
  onError: (err: unknown) => void;
}

interface Pending {
  n: NativeNotification;
  sentAt: number;
  timer: unknown;
  shown: boolean;
}

/** A late acknowledgement (the fallback's own) still finds its notification among these. */
const REMEMBERED = 500;

/**
 * Ids unique in the process and unlikely across its runs: a page's late acknowledgement of a
 * core switched away (demo ⇄ live) or of a host restarted never lands on another's alert.
 */
let nextDeliveryId = Date.now();

export class Acknowledgements {
  private readonly pending = new Map<number, Pending>();
  private readonly deadlineMs: number;
  private readonly didMiss: Emitter<NativeNotification>;
  /** No surface acknowledged this notification by the deadline: fall back. */
  readonly onDidMiss: Event<NativeNotification>;

  constructor(private readonly o: AcknowledgementsOptions) {
    this.deadlineMs = o.deadlineMs ?? 1_000;
    this.didMiss = new Emitter<NativeNotification>(o.onError);
    this.onDidMiss = this.didMiss.event;
  }

  /** The notification goes out now: its id for acknowledgements, its receipts' `sentAt`. */
  sent(notification: NativeNotification): NativeNotification {
    const n = { ...notification, deliveryId: ++nextDeliveryId };
    const sentAt = this.o.now();
    this.guard(() => this.o.store.markAlertsSent(n.alertIds, sentAt));
    const timer = this.o.timers.setTimeout(() => this.miss(n.deliveryId), this.deadlineMs);
    this.remember(n.deliveryId, { n, sentAt, timer, shown: false });
    return n;
  }

  /**
   * A surface showed it. The first acknowledgement stamps the receipt (later ones, another
   * window's, are the same alert seen twice). Its time is the surface's clock, kept between
   * the send and now. False for an id this core never sent (or long forgotten).
   */
  acknowledge(ack: AlertShown): boolean {
    const p = this.pending.get(ack.id);
    if (!p) return false;
    if (p.shown) return true;
    p.shown = true;
    this.o.timers.clearTimeout(p.timer);
    const at = Math.min(this.o.now(), Math.max(p.sentAt, ack.at));
    this.guard(() => this.o.store.markAlertsShown(p.n.alertIds, at, ack.surface));
    return true;
  }

  /** Clears every deadline; nothing falls back afterwards. */
  stop(): void {
    for (const p of this.pending.values()) this.o.timers.clearTimeout(p.timer);
    this.pending.clear();
  }

  private miss(id: number): void {
    const p = this.pending.get(id);
    if (!p || p.shown) return;
    this.guard(() => this.o.store.markAlertsFallback(p.n.alertIds, this.o.now()));
    this.didMiss.fire(p.n);
  }

  private remember(id: number, p: Pending): void {
    if (this.pending.size >= REMEMBERED) {
      const oldest = this.pending.entries().next();
      if (!oldest.done) {
        this.o.timers.clearTimeout(oldest.value[1].timer);
        this.pending.delete(oldest.value[0]);
      }
    }
    this.pending.set(id, p);
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.o.onError(err);
    }
  }
}
