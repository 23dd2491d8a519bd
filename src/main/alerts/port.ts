/**
 * What the alerts engine needs from the outside world, narrowed to the few calls it makes:
 * the store (the SQLite one in the app, a small in-memory one in tests) and timers (real
 * ones in the app, a controllable clock in tests).
 */
import type {
  AlertKind,
  AlertReceipt,
  AlertRecord,
  AlertTarget,
  EventDate,
} from '../../shared/domain.js';

/** An alert to record; `dedupKey` is unique in the store, across sources and restarts. */
export interface NewAlert {
  dedupKey: string;
  kind: AlertKind;
  title: string;
  body: string;
  createdAt: number;
  target: AlertTarget;
  late?: boolean;
  receipt?: AlertReceipt | null;
}

export interface UpcomingQuery {
  /** ISO-8601 UTC bounds, `from` inclusive. */
  from: string;
  to: string;
  minVolatility?: string;
  eventIds?: string[];
}

export interface AlertStore {
  /** Null when an alert with this dedup key already exists. */
  insertAlert(a: NewAlert): AlertRecord | null;
  /** Rewrite the alert recorded under `dedupKey` as `a`, keeping its id (null: none such). */
  replaceAlert?(dedupKey: string, a: NewAlert): AlertRecord | null;
  upcoming(q: UpcomingQuery): EventDate[];
}

export { realTimers, type Timers } from '../../shared/timers.js';
