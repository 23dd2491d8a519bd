/**
 * The live source as the sync engine sees it: the relay consumer (relay-consumer.ts), its
 * options and the status it reports. Kept apart so the engine and the consumer do not
 * import each other.
 */
import type { Logger } from 'pino';
import type { PresenceHooks } from '../desk/presence-reporter.js';
import type { RelayApplier } from './relay-apply.js';

export interface RelayStatus {
  connected: boolean;
  /** The relay URL (of the configured list) the stream is on now. */
  node: string | null;
  /** Opaque relay ids (src/shared/relay-ids.ts). */
  lastEventId: string | null;
  lastEventAt: number | null;
  lagMs: number | null;
  error: string | null;
  /**
   * Heartbeats arrive but the node is behind (why, in plain words): its store has not
   * answered it, or its head stays past what reached us, for RELAY_BEHIND_MS or more.
   */
  behind?: string | null;
  /** The relay said it refuses webhooks (a full disk, say), and why; null when it takes them. */
  refusing?: string | null;
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
  /**
   * Where the events go: the sync engine's RelayApplier (relay-apply.ts) — typed as that
   * class, so "go to definition" from the consumer lands on its `batch`, `one`, `replay`.
   * `one` per event; `batch` (optional) a run received together, in order; `replay` (optional)
   * an event the desk re-sent, applied idempotently with the cursor untouched; `start`
   * (optional) where a stream opened with no id begins, kept as the first cursor.
   */
  applier: Pick<RelayApplier, 'one'> & Partial<Pick<RelayApplier, 'batch' | 'replay' | 'start'>>;
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
