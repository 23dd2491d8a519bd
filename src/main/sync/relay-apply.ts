/**
 * Applies what the relay streams, the cursor (Last-Event-ID) persisted in the same
 * transaction as each change. A notification that cannot be applied — malformed, too
 * deep, a record the service sends broken — is a bad item: logged, counted, and the
 * cursor moves past it. Only a failure to reach the service or the disk is rethrown, so
 * the consumer reconnects and retries from the same id; a bad item never stalls the feed.
 */
import type { Logger } from 'pino';
import { compareEventIds } from '../../shared/relay-ids.js';
import type { ChangeApplier } from './applier.js';
import type { SyncStore } from './ports.js';
import { failureKind } from '../errors.js';
import { Emitter, type Event } from '../../shared/event.js';

export interface RelayApplierDeps {
  store: Pick<SyncStore, 'transaction' | 'getSyncState' | 'setSyncState'>;
  applier: Pick<ChangeApplier, 'applyNotification' | 'applyMany'>;
  logger: Logger;
  cursorKey: string;
}

/**
 * Errors worth a retry from the same id (the network, the disk); anything else — bad
 * items and bugs alike — is about the item, counted bad rather than retried forever. The
 * app's one catalogue decides (src/main/errors.ts `failureKind`).
 */
export function isRetryable(err: unknown): boolean {
  return failureKind(err).retryable;
}

type RelayItem = { id: string; payload: unknown; receivedAt?: number | null };

export class RelayApplier {
  private readonly didReceive = new Emitter<unknown>({ name: 'RelayApplier.onDidReceive' });
  /** Each notification received (webhooks are alive: the safety net is told). */
  readonly onDidReceive: Event<unknown> = this.didReceive.event;
  private readonly didSkip = new Emitter<void>({ name: 'RelayApplier.onDidSkip' });
  /** A notification that can never apply was skipped (counted as bad). */
  readonly onDidSkip: Event<void> = this.didSkip.event;

  constructor(private readonly deps: RelayApplierDeps) {}

  async one(id: string, payload: unknown, receivedAt: number | null = null): Promise<void> {
    this.didReceive.fire(payload);
    try {
      await this.deps.applier.applyNotification(payload, 'relay', this.persist(id), {
        relayReceivedAt: receivedAt,
      });
    } catch (err) {
      if (isRetryable(err)) throw err;
      this.skip(id, err);
    }
  }

  /** A burst received together: one transaction, the cursor with it. */
  async batch(items: RelayItem[]): Promise<void> {
    items.forEach((i) => this.didReceive.fire(i.payload));
    try {
      await this.deps.applier.applyMany(
        items.map((i) => ({
          payload: i.payload,
          afterApply: this.persist(i.id),
          hop: { relayReceivedAt: i.receivedAt ?? null },
        })),
        'relay',
      );
    } catch (err) {
      if (isRetryable(err)) throw err;
      // One bad item in the run: redo the rest one by one, skipping it.
      for (const i of items) {
        const done = this.deps.store.getSyncState(this.deps.cursorKey);
        if (done !== null && compareEventIds(done, i.id) >= 0) continue;
        try {
          await this.deps.applier.applyNotification(i.payload, 'relay', this.persist(i.id), {
            relayReceivedAt: i.receivedAt ?? null,
          });
        } catch (e) {
          if (isRetryable(e)) throw e;
          this.skip(i.id, e);
        }
      }
    }
  }

  /**
   * An event the desk re-sent: applied through the same idempotent path (its key and
   * `lastUpdated` decide), without the cursor; an item that cannot be applied is only logged.
   */
  async replay(item: RelayItem): Promise<void> {
    try {
      const changes = await this.deps.applier.applyNotification(item.payload, 'relay', undefined, {
        relayReceivedAt: item.receivedAt ?? null,
      });
      this.deps.logger.info({ id: item.id, changes: changes.length }, 'replayed event applied');
    } catch (err) {
      if (isRetryable(err)) throw err;
      this.deps.logger.warn({ id: item.id, err }, 'replayed event skipped: it cannot be applied');
    }
  }

  /**
   * Where a stream opened with no id began (the relay's `position` event): kept as the
   * cursor while there is none, so a drop before the first notification resumes from there
   * instead of from whatever is newest then.
   */
  start(id: string): void {
    if (this.deps.store.getSyncState(this.deps.cursorKey) !== null) return;
    this.deps.store.transaction(this.persist(id));
  }

  private persist(id: string): () => void {
    return () => this.deps.store.setSyncState(this.deps.cursorKey, id);
  }

  private skip(id: string, err: unknown): void {
    this.deps.logger.warn({ id, err }, 'relay notification skipped: it cannot be applied');
    this.deps.store.transaction(this.persist(id));
    this.didSkip.fire();
  }
}
