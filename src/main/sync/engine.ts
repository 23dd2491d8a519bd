/**
 * The sync engine: backfill first, then live updates — the relay's stream, the service's
 * webhooks (demo) or base polling — with the safety net polling every alertable release
 * beside whichever runs. It owns the one connection state (connection-state.ts), catches
 * up by itself after an outage, a relay gap or a wake from sleep, and counts bad items.
 */
import type { Logger } from 'pino';
import type { BackfillProgress, LiveTransport, Settings } from '../../shared/domain.js';
import type { ChangeApplier } from './applier.js';
import { runBackfill } from './backfill.js';
import { ConnectionTracker, DELIVERY_FRESH_MS, deriveConnection } from './connection-state.js';
import { DeliveryExpiry } from './delivery-expiry.js';
import { Poller } from './poller.js';
import type { SyncCalendarApi, SyncNewsApi, SyncStore } from './ports.js';
import { RelayApplier } from './relay-apply.js';
import { DisposableStore, toDisposable } from '../../shared/event.js';
import { SafetyNet, type SafetyNetTuning } from './safety-net.js';
import type { ServiceHealth } from './service-health.js';
import { realTimers, type Timers } from '../../shared/timers.js';
import { assembleSyncStatus, type SyncStatus } from './sync-status.js';
import type {
  LiveSource,
  RelayConsumerFactory,
  RelayConsumerOptions,
  RelayStatus,
} from './live-source.js';
import { WakeDetector } from './wake-detector.js';

export const RELAY_CURSOR_KEY = 'relay.lastEventId';

export interface SyncEngineDeps {
  store: SyncStore;
  /** The clients, observed by `health` (service-health.ts observeApis). */
  calendar: SyncCalendarApi;
  news: SyncNewsApi;
  applier: ChangeApplier;
  health: ServiceHealth;
  settings: () => Settings;
  /** True while the service's webhooks come straight to this app (demo mode). */
  directWebhooks?: () => boolean;
  relayToken: () => Promise<string | null>;
  relayConsumer: RelayConsumerFactory;
  logger: Logger;
  /** Something in the status changed; read it with getStatus() (once per burst, not per item). */
  onStatus: () => void;
  onBackfill: (p: BackfillProgress) => void;
  safetyNet?: Partial<SafetyNetTuning>;
  /** Desk presence reports for the relay stream (src/main/desk/presence-reporter.ts). */
  presence?: RelayConsumerOptions['presence'];
  now?: () => number;
  /** The clock that stands still while the machine sleeps (tests simulate a sleep with it). */
  monotonicNow?: () => number;
  timers?: Timers;
}

const BAD_COUNT_KEY = 'notifications.bad';

export class SyncEngine {
  private poller: Poller | null = null;
  private relay: LiveSource | null = null;
  private relayStatus: (RelayStatus & { url: string; downSince: number | null }) | null = null;
  private webhooksLateSince: number | null = null;
  /** When a webhook last arrived (direct or via the relay): they may carry an API outage. */
  private lastDeliveryAt: number | null = null;
  private backfillProgress: BackfillProgress | null = null;
  private running = false;
  /** The running backfill, and what ends it after its request in flight (stop). */
  private backfilling: { done: Promise<void>; abort: AbortController } | null = null;
  /** Starts, restarts and stops of the live source, one after another (never two at once). */
  private liveQueue: Promise<void> = Promise.resolve();
  private readonly startedAt: number;
  private readonly tracker = new ConnectionTracker();
  private readonly safetyNet: SafetyNet;
  private readonly wake: WakeDetector;
  private readonly relayApply: RelayApplier;
  /** Its subscriptions (the service's health, the relay applier's events), ended at stop. */
  private readonly subscriptions = new DisposableStore();
  private readonly now: () => number;
  private readonly deliveryExpiry: DeliveryExpiry;

  constructor(private readonly deps: SyncEngineDeps) {
    this.now = deps.now ?? Date.now;
    this.deliveryExpiry = new DeliveryExpiry(deps.timers ?? realTimers, () => this.push());
    this.startedAt = this.now();
    this.safetyNet = new SafetyNet({
      ...deps,
      tuning: deps.safetyNet,
      expectWebhooks: () => this.transport() !== 'polling',
      onWebhooksLate: (since) => {
        this.webhooksLateSince = since;
        this.push();
      },
    });
    this.wake = new WakeDetector({
      timers: deps.timers,
      monoNow: deps.monotonicNow,
      onJump: (ms) => {
        deps.logger.info(
          { jumpMs: Math.round(ms) },
          'clock jump (sleep or clock change): catching up',
        );
        this.catchUp();
      },
    });
    this.relayApply = new RelayApplier({
      store: deps.store,
      applier: deps.applier,
      logger: deps.logger,
      cursorKey: RELAY_CURSOR_KEY,
    });
    this.subscriptions.add(this.relayApply.onDidReceive((payload) => this.noteDelivered(payload)));
    this.subscriptions.add(this.relayApply.onDidSkip(() => this.countBad()));
    const offHealth = deps.health.onChange((_, recovered) => {
      if (recovered) {
        deps.logger.info('the service answers again: catching up');
        this.catchUp();
      } else if (this.deps.health.failing) {
        // The safety net's next read is the probe that notices recovery (≤ 8 s apart).
        void this.safetyNet.checkNow();
      }
      this.push();
    });
    this.subscriptions.add(toDisposable(offHealth));
  }

  getStatus(): SyncStatus {
    const health = this.deps.health.get();
    const relay = this.relayStatus;
    const connection = this.tracker.update(
      deriveConnection({
        transport: this.transport(),
        health,
        relay: relay
          ? {
              connected: relay.connected,
              downSince: relay.downSince,
              error: relay.error,
              behind: relay.behind ?? null,
              refusing: relay.refusing ?? null,
            }
          : null,
        webhooksLateSince: this.webhooksLateSince,
        startedAt: this.startedAt,
        lastDeliveryAt: this.lastDeliveryAt,
        now: this.now(),
      }),
      this.now(),
    );
    return assembleSyncStatus({
      connection,
      health,
      relay,
      backfill: this.backfillProgress,
      storedBackfillAt: this.deps.store.getSyncState('backfill.lastAt'),
      badNotifications: Number(this.deps.store.getSyncState(BAD_COUNT_KEY) ?? 0),
    });
  }

  /** Backfill, then go live. Resolves after the first backfill attempt (ok or not). */
  async start(): Promise<void> {
    this.running = true;
    this.wake.start();
    await this.backfill();
    // A restart during the backfill may have gone live already: this one replaces it.
    await this.switchLive(() => this.goLive());
    this.safetyNet.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.backfilling?.abort.abort();
    this.subscriptions.dispose();
    this.wake.stop();
    this.deliveryExpiry.stop();
    await this.safetyNet.stop();
    await this.switchLive(() => undefined);
    await this.backfilling?.done.catch(() => undefined);
    this.deps.applier.cancelPending();
    await this.deps.applier.settle();
  }

  /** Settings changed (relay URL, cultures, window): re-plan live updates. */
  async restart(): Promise<void> {
    if (!this.running) return;
    await this.switchLive(() => {
      this.webhooksLateSince = null;
      this.goLive();
    });
    this.safetyNet.replan();
    this.push();
  }

  /**
   * Stop the live source, then run `next` (which may start one), after every earlier
   * switch has finished: concurrent restarts (a relay URL and the cultures saved at once,
   * or during the first backfill) leave exactly one stream or poller, never a second one
   * nobody stops.
   */
  private switchLive(next: () => void): Promise<void> {
    const run = this.liveQueue.then(async () => {
      await this.stopLive();
      next();
    });
    this.liveQueue = run.catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'switching live updates failed');
    });
    return run;
  }

  /** "Sync now", recovery, relay gaps and wake-ups come here; concurrent calls share one run. */
  backfill(): Promise<void> {
    if (this.backfilling) return this.backfilling.done;
    const abort = new AbortController();
    const done = (async () => {
      try {
        await runBackfill({
          ...this.deps,
          signal: abort.signal,
          onProgress: (p) => {
            this.backfillProgress = p;
            this.deps.onBackfill(p);
            this.push();
          },
        });
      } catch (err) {
        if (abort.signal.aborted) return; // stopped: nothing failed, nothing to show
        this.deps.logger.warn({ err }, 'backfill failed; it runs again when the service answers');
        this.backfillProgress = null;
        this.deps.onBackfill({ running: false, phase: 'Failed', done: 0, total: 0 });
        this.push();
      } finally {
        this.backfilling = null;
      }
    })();
    this.backfilling = { done, abort };
    return done;
  }

  /** Alert rules or the cached calendar changed: the safety net plans again. */
  replanBursts(): void {
    this.safetyNet.replan();
  }

  /** Direct webhooks (demo) delivered this: it confirms what the safety net found. */
  noteWebhook(payload: unknown): void {
    this.noteDelivered(payload);
  }

  private noteDelivered(payload: unknown): void {
    const before = this.lastDeliveryAt;
    this.lastDeliveryAt = this.now();
    this.safetyNet.noteDelivered(payload);
    // During an API outage, the first webhook turns "offline" into "API unavailable".
    const failingSince = this.deps.health.get().failingSince;
    const first = before === null || failingSince === null || before < failingSince;
    const stale = before === null || this.lastDeliveryAt - before > DELIVERY_FRESH_MS;
    if (failingSince === null) return;
    if (first || stale) this.push();
    this.deliveryExpiry.arm();
  }

  /** Record a notification that could not be applied (its sender moves past it). */
  countBad(): void {
    const n = Number(this.deps.store.getSyncState(BAD_COUNT_KEY) ?? 0) + 1;
    this.deps.store.transaction(() => this.deps.store.setSyncState(BAD_COUNT_KEY, String(n)));
    this.push();
  }

  private transport(): LiveTransport {
    if (this.deps.settings().relayUrl) return 'relay';
    return this.deps.directWebhooks?.() ? 'webhooks' : 'polling';
  }

  /** After any gap: re-sync the cached window and re-read what the net watches. */
  private catchUp(): void {
    if (!this.running) return;
    void this.backfill().then(() => this.safetyNet.checkNow());
  }

  private goLive(): void {
    if (!this.running) return;
    const s = this.deps.settings();
    if (s.relayUrl) this.startRelay(s.relayUrl);
    else this.startPolling();
  }

  private startPolling(): void {
    this.relayStatus = null;
    this.poller = new Poller(this.deps);
    this.poller.start();
  }

  private startRelay(url: string): void {
    this.relayStatus = {
      url,
      connected: false,
      node: null,
      lastEventId: this.relayCursor(),
      lastEventAt: null,
      lagMs: null,
      error: null,
      downSince: this.now(),
    };
    this.relay = this.deps.relayConsumer({
      url,
      token: this.deps.relayToken,
      getLastEventId: () => this.relayCursor(),
      applier: this.relayApply,
      onReset: () => this.backfill(),
      onReconnectGap: () => this.backfill(),
      onStatus: (r) => {
        const prev = this.relayStatus;
        const downSince = r.connected ? null : (prev?.downSince ?? this.now());
        this.relayStatus = { url, ...r, downSince };
        this.push();
      },
      presence: this.deps.presence,
      logger: this.deps.logger,
    });
    this.relay.start();
  }

  private relayCursor(): string | null {
    return this.deps.store.getSyncState(RELAY_CURSOR_KEY);
  }

  private async stopLive(): Promise<void> {
    this.poller?.stop();
    this.poller = null;
    await this.relay?.stop();
    this.relay = null;
  }

  private push(): void {
    this.deps.onStatus();
  }
}
