/**
 * Whether the Redis log may acknowledge webhooks right now. redis-durability.ts reads the
 * promise once; this keeps reading it while the relay runs, because Redis can drop the
 * connection, restart with other settings, or have `appendfsync` changed live. Ingest turns
 * 503 with a plain reason until the promise holds again, without a relay restart.
 */
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { Emitter, type Event } from '../../shared/event.js';
import { checkDurability, type Durability, type DurabilityMode } from './redis-durability.js';
import { SettingsWatch } from './redis-settings-watch.js';

/** Plain reasons for /healthz and 503 bodies (no client-library text, no Redis address). */
const LOST = 'the relay lost its connection to Redis and is reconnecting';
const UNPROMISED =
  'Redis is not set up to keep stored webhooks safely (see the relay log); webhooks are refused until it is';
const frozen = (ms: number) =>
  `Redis stopped answering this node (no reply for ${ms / 1000} s); its traders are sent to another node`;
const DURABILITY_RECHECK_MS = 1000;
/** How often the link to Redis is pinged, to notice a Redis that answers nothing. */
const PULSE_MS = 1000;
/** A ping unanswered for this long: the store is frozen for this node. */
const FROZEN_AFTER_MS = 3000;

interface DurabilityWatchOptions {
  mode: DurabilityMode;
  /** host:port, for the log lines. */
  where: string;
  logger?: Logger;
  /** How often the promise and the generation marker are read while all is well. */
  checkEveryMs: number;
  /** Reads the store-generation marker (redis-generation.ts) with the promise. */
  checkGeneration: () => Promise<void>;
  /** A ping unanswered this long marks the store frozen (default 3 s; tests: shorter). */
  frozenAfterMs?: number;
}

export class DurabilityWatch {
  /** Times ingest went from taking webhooks to refusing them. */
  outages = 0;
  private down: string | null = null;
  private stopped = false;
  private recheck: NodeJS.Timeout | null = null;
  private whileOkTimer: NodeJS.Timeout | null = null;
  private pulseTimer: NodeJS.Timeout | null = null;
  /** When the ping in flight was sent (performance.now()), null when none is. */
  private pingSentAt: number | null = null;
  /** Beats that found the ping in flight still unanswered. */
  private beatsWaiting = 0;
  /** When Redis last answered this node's ping. */
  private heardAt = performance.now();
  private readonly frozenReason: string;
  private readonly didChangeCutOff = new Emitter<string | null>((err) =>
    this.opts.logger?.error({ err }, 'a store cut-off listener failed'),
  );
  /**
   * This node lost its link to Redis (closed, or frozen: no answer), with the reason, or
   * found it again (null): its traders' streams are closed so they move to another node.
   */
  readonly onDidChangeCutOff: Event<string | null> = this.didChangeCutOff.event;
  /** The operator's `aof-always` statement may no longer hold (settings changed at runtime). */
  private readonly settings = new SettingsWatch();

  constructor(
    private readonly redis: Redis,
    private durability: Durability,
    private readonly opts: DurabilityWatchOptions,
  ) {
    this.settings.note(durability);
    this.frozenReason = frozen(opts.frozenAfterMs ?? FROZEN_AFTER_MS);
  }

  /** Why this node cannot reach Redis (closed or frozen), or null when it can. */
  cutOff(): string | null {
    return this.down === LOST || this.down === this.frozenReason ? this.down : null;
  }

  /** How long since Redis last answered this node's ping (0 when the ping is not late). */
  silentMs(): number {
    return this.pingSentAt === null ? 0 : Math.round(performance.now() - this.heardAt);
  }

  /** The promise as last read (its replica count is what each append waits for). */
  get current(): Durability {
    return this.durability;
  }

  /** Why webhooks are refused (down, or not connected), or null when they are taken. */
  refusal(): string | null {
    if (this.down !== null) return this.down;
    return this.redis.status === 'ready' ? null : LOST;
  }

  /** Why the store is down, for /healthz (null while it takes webhooks). */
  downReason(): string | null {
    return this.down;
  }

  /** The warning that the operator's stated promise may no longer hold, if any. */
  unverified(): string | null {
    return this.settings.warning();
  }

  start(): void {
    this.checkWhileOk();
    this.pulse();
    // Back after an outage: Redis may have restarted with other settings, so the promise
    // is checked again before webhooks are acknowledged (503 until it holds).
    this.redis.on('ready', () => this.checkPromise());
    this.redis.on('close', () => {
      this.pingSentAt = null; // the ping in flight is lost with the connection
      if (this.stopped || this.down === LOST) return;
      this.goDown(LOST);
      this.opts.logger?.error({ redis: this.opts.where }, 'Redis connection lost; reconnecting');
    });
  }

  /** Before the connection is closed, so closing it is not an outage. */
  stop(): void {
    this.stopped = true;
    if (this.recheck) clearTimeout(this.recheck);
    if (this.whileOkTimer) clearTimeout(this.whileOkTimer);
    if (this.pulseTimer) clearTimeout(this.pulseTimer);
    this.didChangeCutOff.dispose();
  }

  /**
   * Pings Redis every second. A frozen Redis (SIGSTOP, a link that stops forwarding) keeps
   * the connection open and answers nothing, so no 'close' comes: a ping unanswered for
   * FROZEN_AFTER_MS is the only sign. Then ingest refuses and /healthz says why; the first
   * answer after it has the promise read again before webhooks are taken.
   */
  private pulse(): void {
    if (this.stopped) return;
    this.pulseTimer = setTimeout(() => {
      this.beat();
      this.pulse();
    }, PULSE_MS);
    this.pulseTimer.unref();
  }

  private beat(): void {
    const limit = this.opts.frozenAfterMs ?? FROZEN_AFTER_MS;
    if (this.pingSentAt !== null) {
      // Judged over several beats, not one late timer: an event loop busy for seconds (a
      // burst) runs this beat before it reads the answer that is already there.
      this.beatsWaiting++;
      const waited = performance.now() - this.pingSentAt;
      if (waited < limit || this.beatsWaiting < Math.ceil(limit / PULSE_MS)) return;
      if (this.cutOff() !== null) return;
      this.goDown(this.frozenReason);
      this.opts.logger?.error(
        { redis: this.opts.where },
        `Redis does not answer: ${this.frozenReason}`,
      );
      return;
    }
    if (this.redis.status !== 'ready') return;
    const sent = performance.now();
    this.pingSentAt = sent;
    this.beatsWaiting = 0;
    this.redis.ping().then(
      () => {
        if (this.pingSentAt !== sent) return;
        this.pingSentAt = null;
        this.heardAt = performance.now();
        if (this.down === this.frozenReason) this.checkPromise();
      },
      () => {
        // Timed out (COMMAND_TIMEOUT_MS) or the connection went: the next beat pings again.
        if (this.pingSentAt === sent) this.pingSentAt = null;
      },
    );
  }

  private checkWhileOk(): void {
    if (this.stopped) return;
    this.whileOkTimer = setTimeout(() => {
      const check =
        this.redis.status === 'ready' && this.down === null
          ? this.recheckWhileOk()
          : Promise.resolve();
      check
        .catch((err: unknown) => this.opts.logger?.debug({ err }, 'generation check failed'))
        .finally(() => this.checkWhileOk());
    }, this.opts.checkEveryMs);
    this.whileOkTimer.unref();
  }

  /**
   * While all is well, every few seconds: the durability promise (a live `CONFIG SET
   * appendfsync everysec` must not go unnoticed: ingest turns 503 with the reason, and
   * back once it is fixed) and the store-generation marker.
   */
  private async recheckWhileOk(): Promise<void> {
    try {
      this.adopt(await checkDurability(this.redis, this.opts.mode));
    } catch (err) {
      if (this.down !== null || this.redis.status !== 'ready' || this.stopped) return;
      this.opts.logger?.error(
        { err, redis: this.opts.where },
        'Redis stopped keeping the durability promise; refusing webhooks until it does',
      );
      this.refuseAndRecheck();
      return;
    }
    await this.opts.checkGeneration();
  }

  /**
   * Reads Redis's settings; while they fall short, again every second, so an operator's
   * live fix (`CONFIG SET appendfsync always`) restores ingest without a restart.
   */
  private checkPromise(): void {
    if (this.recheck) clearTimeout(this.recheck);
    this.recheck = null;
    if (this.stopped || this.redis.status !== 'ready') return;
    checkDurability(this.redis, this.opts.mode)
      .then(async (d) => {
        // Before webhooks are taken again: did Redis come back empty or older?
        await this.opts
          .checkGeneration()
          .catch((err: unknown) =>
            this.opts.logger?.warn({ err }, 'could not read the store-generation marker'),
          );
        return d;
      })
      .then(
        (d) => {
          this.adopt(d);
          if (this.down !== null)
            this.opts.logger?.info({ redis: this.opts.where }, 'Redis ingest restored');
          this.setDown(null);
        },
        (err: unknown) => {
          if (this.down !== UNPROMISED)
            this.opts.logger?.error(
              { err, redis: this.opts.where },
              'Redis cannot keep the durability promise; refusing webhooks until it can',
            );
          this.refuseAndRecheck();
        },
      );
  }

  private adopt(d: Durability): void {
    this.durability = d;
    const changed = this.settings.note(d);
    if (changed) this.opts.logger?.warn({ redis: this.opts.where }, `Redis durability ${changed}`);
  }

  private refuseAndRecheck(): void {
    this.goDown(UNPROMISED);
    this.recheck = setTimeout(() => this.checkPromise(), DURABILITY_RECHECK_MS);
    this.recheck.unref();
  }

  /** Webhooks are refused from now on; a new outage when they were taken until now. */
  private goDown(reason: string): void {
    if (this.down === null) this.outages++;
    this.setDown(reason);
  }

  private setDown(reason: string | null): void {
    const wasCutOff = this.cutOff();
    this.down = reason;
    const cutOff = this.cutOff();
    if (cutOff !== wasCutOff && !this.stopped) this.didChangeCutOff.fire(cutOff);
  }
}
