/**
 * The live source as the sync engine sees it: the relay consumer (relay-consumer.ts), its
 * options and the status it reports. Kept apart so the engine and the consumer do not
 * import each other.
 */
import type { Logger } from 'pino';
import type { PresenceHooks } from '../desk/presence-reporter.js';

export interface RelayStatus {
  connected: boolean;
  /** The relay URL (of the configured list) the stream is on now. */
  node: string | null;
  /** Opaque relay ids (src/shared/relay-ids.ts). */
  lastEventId: string | null;
  lastEventAt: number | null;
  lagMs: number | null;
  error: string | null;
}

/** The relay consumer as the engine uses it. */
export interface LiveSource {
  start(): void;
  stop(): void | Promise<void>;
}

export interface RelayConsumerOptions {
  /** One relay URL, or several separated by commas (tried in order, round-robin on failure). */
  url: string;
  token: () => Promise<string | null>;
  getLastEventId: () => string | null;
  /** `receivedAt`: when the relay stored it (its `: received <ms>` comment), if it said. */
  apply: (id: string, payload: unknown, receivedAt?: number | null) => Promise<void>;
  /** Optional: apply a run already received together (a burst) in one go, in order. */
  applyBatch?: (
    items: { id: string; payload: unknown; receivedAt?: number | null }[],
  ) => Promise<void>;
  /** An event the desk re-sent (`relay replay`): apply it idempotently, cursor untouched. */
  applyReplay?: (item: {
    id: string;
    payload: unknown;
    receivedAt: number | null;
  }) => Promise<void>;
  /** The relay could not replay everything since our id (retention, or a new log). */
  onReset: () => Promise<void>;
  /** Called after every reconnect (not the first connect): re-sync from the API. */
  onReconnectGap: () => Promise<void>;
  onStatus: (s: RelayStatus) => void;
  /** Desk presence: who this desktop is, and what it applied (src/main/desk). */
  presence?: PresenceHooks;
  watchdogMs?: number;
  backoff?: { minMs: number; maxMs: number };
  logger?: Logger;
}

/** Builds the relay consumer; tests pass their own. */
export type RelayConsumerFactory = (opts: RelayConsumerOptions) => LiveSource;
