/**
 * The relay's durable log, as the HTTP and SSE sides see it. Two backends implement it:
 * the embedded SQLite file (one node; src/relay/log/sqlite-log.ts) and Redis Streams (any
 * number of nodes on one Redis; src/relay/log/redis-log.ts). Ids are opaque strings to
 * clients: SQLite's are integers ("42"), Redis's are stream ids ("1700000000000-3").
 * "0" means "before everything" on both.
 */
import type { Histogram } from 'prom-client';

export interface StoredEvent {
  id: string;
  receivedAt: number;
  type: string;
  /** The body exactly as received. */
  body: Buffer;
}

/** Where a resume starts and whether it can be exact. */
export interface ResumePoint {
  /** The id to read after (0 when the client's id is unusable). */
  from: string;
  /** Not exact: retention removed ids after the client's, or the id is from another log. */
  gap: boolean;
  oldestId: string | null;
  lastId: string;
}

export interface LogHealth {
  ok: boolean;
  /** Why it is not ok (plain words for /healthz). */
  reason?: string;
  /** What an acknowledgement promises, when weaker than the default. */
  durability?: string;
  /**
   * The store came back empty or older than it was (Redis only; redis-generation.ts).
   * Webhooks are still taken; the desk's users, admins and lists may be gone.
   */
  storeLost?: { at: number; reason: string };
  /**
   * The fsync promise is the operator's statement and Redis's settings changed at runtime
   * since (redis-settings-watch.ts): webhooks are still taken, the desk is told.
   */
  durabilityUnverified?: string;
  /**
   * This node cannot reach its store (Redis only: the connection closed, or Redis answers
   * nothing): other nodes may, so its traders' streams are closed and refused (sse-hub.ts).
   */
  cutOff?: true;
}

/** The store cannot take writes now (Redis down): the webhook is answered 503, retried. */
export class StoreUnavailable extends Error {}

export interface EventLog {
  readonly backend: 'sqlite' | 'redis';
  /** Resolves with the event's id once it is durable; rejects with StoreUnavailable or an error. */
  append(body: Buffer, type: string, headers: Record<string, string>): Promise<string>;
  /** Committed events in id order, as this node learns of them (from any node). */
  onAppend(listener: (events: StoredEvent[]) => void): () => void;
  /** Events after `id`, at most `limit` and about `maxBytes` of bodies (at least one). */
  after(id: string, limit: number, maxBytes?: number): Promise<StoredEvent[]>;
  /**
   * An id to read `after()` from that reaches every event received at or after `since`
   * (earlier ones may come too: the caller skips them), so a time range is not found by
   * reading the log from its start.
   */
  seek(since: number): Promise<string>;
  /** The positions (id, time received; no bodies where the backend can) of the last `limit` events, oldest first. */
  lastPositions(limit: number): Promise<{ id: string; receivedAt: number }[]>;
  /** The last id this node has passed to onAppend listeners (or stored), "0" if none. */
  lastId(): string;
  /** A client id in this log's format, or null if it is malformed. */
  parseId(raw: string): string | null;
  resume(after: string): Promise<ResumePoint>;
  /** Removes events older than the given age; resolves with how many were removed. */
  trim(olderThanMs: number): Promise<number>;
  stats(): Promise<{ rows: number; bytes: number | null }>;
  health(): LogHealth;
  /**
   * Redis only: this node lost its link to the store (the reason) or found it again (null).
   * Returns the unsubscribe.
   */
  onCutOff?(listener: (reason: string | null) => void): () => void;
  /**
   * SQLite: the log started refusing webhooks (the reason: a full disk, say) or takes them
   * again (null), so live streams are told at once (sse-hub.ts `storeFrame`). Returns the
   * unsubscribe.
   */
  onRefusing?(listener: (reason: string | null) => void): () => void;
  /** Redis only: how long the store has left this node's ping unanswered (ms, 0 when it answers). */
  storeSilentMs?(): number;
  readonly commitLatency: Histogram;
  ingested: number;
  storeFailures: number;
  /**
   * Times the store went from taking webhooks to refusing them (Redis only): failures
   * during an outage belong to its "store down" alert, not to "failing to be stored".
   */
  outages?: number;
  close(): Promise<void>;
}

/**
 * How far a node's clock (receivedAt) may be from the one that stamped the id (Redis's, or
 * the same node's after a clock step): seeking starts this much earlier.
 */
export const SEEK_SKEW_MS = 5 * 60_000;

/** Orders ids of either form ("42" or "1700000000000-3"). */
export { compareEventIds as compareIds } from '../../shared/relay-ids.js';
