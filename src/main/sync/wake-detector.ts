/**
 * Notices the machine waking from sleep (or the wall clock being set, or the process
 * being frozen): a tick every TICK_MS compares how far the wall clock moved with how far
 * the monotonic clock did. Monotonic time stands still while the machine sleeps and
 * ignores clock changes, so a difference of more than JUMP_MS means the app missed time
 * it must now catch up on; so does a tick arriving more than JUMP_MS late (a frozen VM or
 * process, or a platform whose timers run through sleep).
 */
import { realTimers, type Timers } from '../../shared/timers.js';

export const TICK_MS = 5_000;
export const JUMP_MS = 30_000;

export interface WakeDetectorDeps {
  onJump: (jumpMs: number) => void;
  wallNow?: () => number;
  monoNow?: () => number;
  timers?: Timers;
}

export class WakeDetector {
  private timer: unknown = null;
  private lastWall = 0;
  private lastMono = 0;
  private readonly wallNow: () => number;
  private readonly monoNow: () => number;
  private readonly timers: Timers;

  constructor(private readonly deps: WakeDetectorDeps) {
    this.wallNow = deps.wallNow ?? Date.now;
    this.monoNow = deps.monoNow ?? (() => performance.now());
    this.timers = deps.timers ?? realTimers;
  }

  start(): void {
    this.lastWall = this.wallNow();
    this.lastMono = this.monoNow();
    this.schedule();
  }

  stop(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /** One comparison (the timer calls it; tests may too). */
  check(): void {
    const wall = this.wallNow();
    const mono = this.monoNow();
    const jump = wall - this.lastWall - (mono - this.lastMono);
    const lateBy = mono - this.lastMono - TICK_MS;
    this.lastWall = wall;
    this.lastMono = mono;
    if (Math.abs(jump) > JUMP_MS) this.deps.onJump(jump);
    else if (lateBy > JUMP_MS) this.deps.onJump(lateBy);
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(() => {
      this.check();
      this.schedule();
    }, TICK_MS);
  }
}
