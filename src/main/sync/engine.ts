/**
 * The sync engine: backfill first, then live updates from the relay (when configured) or
 * by polling; offline detection with retry; status for the status bar and the tray.
 */
import type { Logger } from 'pino';
import type {
  BackfillProgress,
  ConnectionMode,
  Settings,
  StatusError,
} from '../../shared/domain.js';
import { compareEventIds } from '../../shared/relay-ids.js';
import { InvalidNotificationError, errorMessage, type ChangeApplier } from './applier.js';
import { runBackfill } from './backfill.js';
import { Poller, type Timers } from './poller.js';
import type { SyncCalendarApi, SyncNewsApi, SyncStore } from './ports.js';

export const RELAY_CURSOR_KEY = 'relay.lastEventId';

export interface RelayStatus {
  connected: boolean;
  /** The relay URL (of the configured list) the stream is on now. */
  node: string | null;
  lastEventId: string | null;
  lastEventAt: number | null;
  lagMs: number | null;
  error: string | null;
}

/** The relay consumer as the engine uses it (src/main/sync/relay-consumer.ts). */
export interface LiveSource {
  start(): void;
  stop(): void | Promise<void>;
}

export interface RelayConsumerFactory {
  (opts: {
    url: string;
    token: () => Promise<string | null>;
    getLastEventId: () => string | null;
    apply: (id: string, payload: unknown) => Promise<void>;
    applyBatch?: (items: { id: string; payload: unknown }[]) => Promise<void>;
    onReset: () => Promise<void>;
    onReconnectGap: () => Promise<void>;
    onStatus: (s: RelayStatus) => void;
    logger?: Logger;
  }): LiveSource;
}

export interface SyncStatus {
  mode: ConnectionMode;
  online: boolean;
  lastSyncAt: number | null;
  backfill: BackfillProgress | null;
  lastError: StatusError | null;
  relay: (RelayStatus & { url: string }) | null;
}

export interface SyncEngineDeps {
  store: SyncStore;
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  applier: ChangeApplier;
  settings: () => Settings;
  relayToken: () => Promise<string | null>;
  relayConsumer: RelayConsumerFactory;
  logger: Logger;
  onStatus: (s: SyncStatus) => void;
  onBackfill: (p: BackfillProgress) => void;
  /** Network/auth errors are "offline"; anything else too, but logged louder. */
  now?: () => number;
  timers?: Timers;
  retry?: { minMs: number; maxMs: number };
}

export class SyncEngine {
  private status: SyncStatus = {
    mode: 'offline',
    online: false,
    lastSyncAt: null,
    backfill: null,
    lastError: null,
    relay: null,
  };
  private poller: Poller | null = null;
  private relay: LiveSource | null = null;
  private running = false;
  private backfilling: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay: number;
  private readonly now: () => number;

  constructor(private readonly deps: SyncEngineDeps) {
    this.now = deps.now ?? Date.now;
    this.retryDelay = deps.retry?.minMs ?? 5_000;
    const last = deps.store.getSyncState('backfill.lastAt');
    this.status.lastSyncAt = last ? Number(last) : null;
  }

  getStatus(): SyncStatus {
    return this.status;
  }

  /** Backfill, then go live. Resolves after the first backfill attempt (ok or not). */
  async start(): Promise<void> {
    this.running = true;
    await this.backfill();
    this.goLive();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.stopLive();
    await this.backfilling?.catch(() => undefined);
    this.deps.applier.cancelPending();
    await this.deps.applier.settle();
  }

  /** Settings changed (relay URL, cultures, window): re-plan live updates. */
  async restart(): Promise<void> {
    if (!this.running) return;
    await this.stopLive();
    this.goLive();
  }

  /** "Sync now", reconnect and relay reset all come here; concurrent calls share one run. */
  backfill(): Promise<void> {
    if (this.backfilling) return this.backfilling;
    this.backfilling = (async () => {
      try {
        await runBackfill({
          ...this.deps,
          onProgress: (p) => {
            this.update({ backfill: p });
            this.deps.onBackfill(p);
          },
        });
        this.markOnline();
      } catch (err) {
        this.markFailure('sync', err);
        this.update({ backfill: null });
        this.deps.onBackfill({ running: false, phase: 'Failed', done: 0, total: 0 });
        this.scheduleRetry();
      } finally {
        this.backfilling = null;
      }
    })();
    return this.backfilling;
  }

  /** Poll-based live updates need rules; call when alert rules change. */
  replanBursts(): void {
    this.poller?.planBursts();
  }

  private goLive(): void {
    if (!this.running) return;
    const s = this.deps.settings();
    if (s.relayUrl) this.startRelay(s.relayUrl);
    else this.startPolling();
  }

  private startPolling(): void {
    this.poller = new Poller({
      ...this.deps,
      onResult: (err) => (err ? this.markFailure('poll', err) : this.markOnline()),
    });
    this.poller.start();
    this.update({ relay: null, mode: this.status.online ? 'polling' : 'offline' });
  }

  private startRelay(url: string): void {
    const { store, applier } = this.deps;
    this.update({
      relay: {
        url,
        connected: false,
        node: null,
        lastEventId: this.relayCursor(),
        lastEventAt: null,
        lagMs: null,
        error: null,
      },
    });
    this.relay = this.deps.relayConsumer({
      url,
      token: this.deps.relayToken,
      getLastEventId: () => this.relayCursor(),
      apply: async (id, payload) => {
        const persist = () => store.setSyncState(RELAY_CURSOR_KEY, id);
        try {
          await applier.applyNotification(payload, 'relay', persist);
        } catch (err) {
          // A malformed body will never become valid: record it and move on.
          if (!(err instanceof InvalidNotificationError)) throw err;
          this.deps.logger.warn({ id, err: err.message }, 'relay notification skipped');
          store.transaction(persist);
        }
      },
      // A burst already received is applied in one transaction, the cursor with it.
      applyBatch: async (items) => {
        const persist = (id: string) => () => store.setSyncState(RELAY_CURSOR_KEY, id);
        try {
          await applier.applyMany(
            items.map((i) => ({ payload: i.payload, afterApply: persist(i.id) })),
            'relay',
          );
        } catch (err) {
          if (!(err instanceof InvalidNotificationError)) throw err;
          // One malformed body in the run: redo the rest one by one, skipping it.
          for (const i of items) {
            const done = store.getSyncState(RELAY_CURSOR_KEY);
            if (done !== null && compareEventIds(done, i.id) >= 0) continue;
            try {
              await applier.applyNotification(i.payload, 'relay', persist(i.id));
            } catch (e) {
              if (!(e instanceof InvalidNotificationError)) throw e;
              this.deps.logger.warn({ id: i.id, err: e.message }, 'relay notification skipped');
              store.transaction(persist(i.id));
            }
          }
        }
      },
      onReset: () => this.backfill(),
      onReconnectGap: () => this.backfill(),
      onStatus: (r) => {
        this.update({
          relay: { url, ...r },
          mode: r.connected ? 'relay' : this.status.online ? 'polling' : 'offline',
        });
        if (r.error) this.markFailure('relay', new Error(r.error), false);
      },
      logger: this.deps.logger,
    });
    this.relay.start();
  }

  /** Opaque relay id as stored (numeric ids from older versions are the same text). */
  private relayCursor(): string | null {
    return this.deps.store.getSyncState(RELAY_CURSOR_KEY);
  }

  private async stopLive(): Promise<void> {
    this.poller?.stop();
    this.poller = null;
    await this.relay?.stop();
    this.relay = null;
  }

  private markOnline(): void {
    this.retryDelay = this.deps.retry?.minMs ?? 5_000;
    const wasOffline = !this.status.online;
    const mode: ConnectionMode = this.status.relay?.connected
      ? 'relay'
      : this.relay
        ? 'relay'
        : 'polling';
    this.update({
      online: true,
      lastSyncAt: this.now(),
      mode,
      lastError: wasOffline ? null : this.status.lastError,
    });
  }

  private markFailure(source: string, err: unknown, offline = true): void {
    const message = errorMessage(err);
    this.deps.logger.warn({ source, err: message }, 'sync problem');
    const patch: Partial<SyncStatus> = { lastError: { source, message, at: this.now() } };
    if (offline) {
      patch.online = false;
      patch.mode = 'offline';
    }
    this.update(patch);
  }

  private scheduleRetry(): void {
    if (!this.running || this.retryTimer) return;
    const max = this.deps.retry?.maxMs ?? 300_000;
    const delay = Math.min(max, this.retryDelay) * (0.5 + Math.random() / 2);
    this.retryDelay = Math.min(max, this.retryDelay * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.backfill();
    }, delay);
    this.retryTimer.unref?.();
  }

  private update(patch: Partial<SyncStatus>): void {
    this.status = { ...this.status, ...patch };
    this.deps.onStatus(this.status);
  }
}
