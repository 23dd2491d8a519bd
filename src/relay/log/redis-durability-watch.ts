/**
 * Whether the Redis log may acknowledge webhooks right now. redis-durability.ts reads the
 * promise once; this keeps reading it while the relay runs, because Redis can drop the
 * connection, restart with other settings, or have `appendfsync` changed live. Ingest turns
 * 503 with a plain reason until the promise holds again, without a relay restart.
 */
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { checkDurability, type Durability, type DurabilityMode } from './redis-durability.js';
import { SettingsWatch } from './redis-settings-watch.js';

/** Plain reasons for /healthz and 503 bodies (no client-library text, no Redis address). */
const LOST = 'the relay lost its connection to Redis and is reconnecting';
const UNPROMISED =
  'Redis is not set up to keep stored webhooks safely (see the relay log); webhooks are refused until it is';
const DURABILITY_RECHECK_MS = 1000;

interface DurabilityWatchOptions {
  mode: DurabilityMode;
  /** host:port, for the log lines. */
  where: string;
  logger?: Logger;
  /** How often the promise and the generation marker are read while all is well. */
  checkEveryMs: number;
  /** Reads the store-generation marker (redis-generation.ts) with the promise. */
  checkGeneration: () => Promise<void>;
}

export class DurabilityWatch {
  /** Times ingest went from taking webhooks to refusing them. */
  outages = 0;
  private down: string | null = null;
  private stopped = false;
  private recheck: NodeJS.Timeout | null = null;
  private whileOkTimer: NodeJS.Timeout | null = null;
  /** The operator's `aof-always` statement may no longer hold (settings changed at runtime). */
  private readonly settings = new SettingsWatch();

  constructor(
    private readonly redis: Redis,
    private durability: Durability,
    private readonly opts: DurabilityWatchOptions,
  ) {
    this.settings.note(durability);
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
    // Back after an outage: Redis may have restarted with other settings, so the promise
    // is checked again before webhooks are acknowledged (503 until it holds).
    this.redis.on('ready', () => this.checkPromise());
    this.redis.on('close', () => {
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
          this.down = null;
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
    this.down = reason;
  }
}
