import type { Timers } from '../../src/shared/timers.js';

/** A clock that moves only when told; `advance` runs the timers that fall due, in order. */
export class ManualClock implements Timers {
  private queue: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;

  constructor(public now: number) {}

  readonly read = (): number => this.now;

  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.ids;
    this.queue.push({ at: this.now + Math.max(0, ms), fn, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** The machine sleeps: time passes, no timer runs until the next `advance`. */
  sleep(ms: number): void {
    this.now += ms;
  }

  advance(ms: number): void {
    const end = this.now + ms;
    for (let i = 0; i < 100_000; i++) {
      this.queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      // A timer overdue after a `sleep` fires late, at the current time, as real ones do.
      this.now = Math.max(this.now, next.at);
      next.fn();
    }
    this.now = end;
  }
}
