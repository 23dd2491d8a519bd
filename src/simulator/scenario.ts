/**
 * The scenario clock: scenario time runs at `speed` × real time (the control API's speed);
 * a fast demo keeps it at 1 and reports its `pace`, how much sooner its releases come. With
 * autoplay on, it releases actual values when their time comes (revising the previous value
 * of the indicators an agency revises: payrolls, GDP, retail sales, claims, PCE, trade, …),
 * on the calendar's real schedule only (no invented releases: they would pollute the
 * histories and z-scores), and publishes one story per print, tagged with its currency
 * and pair, in each news culture. It sleeps until the next release is due (re-planned when
 * a release or the clock changes), not on a fixed tick: the demo app idles at no cost.
 */
import { hasValues, printValues, revisionOf } from './data/calendar.js';
import { CULTURES, postRng, tiedStoryFor } from './data/news.js';
import { afterPrint } from './data/release-news.js';
import { uuid } from './rng.js';
import type { SimEventDate } from './data/calendar.js';
import type { World } from './world.js';
import { realTimers, type Timers } from '../shared/timers.js';

/**
 * The longest autoplay sleeps: a safety net for a schedule changed behind the world's back
 * (its state edited directly) or a wall clock that was set; a minute, as a clock's display.
 */
export const MAX_SLEEP_MS = 60_000;

export class ScenarioClock {
  private base: number;
  private startedAt: number;
  private offsetMs = 0;

  constructor(
    start: number,
    private speedValue: number,
    /** How many times sooner the demo's upcoming releases come (1: on their real times). */
    readonly pace = 1,
    /** Real time (tests inject a manual clock). */
    private readonly realNow: () => number = Date.now,
  ) {
    this.base = start;
    this.startedAt = realNow();
  }

  now = (): number =>
    this.base + (this.realNow() - this.startedAt) * this.speedValue + this.offsetMs;

  get speed(): number {
    return this.speedValue;
  }

  setSpeed(speed: number): void {
    this.base = this.now() - this.offsetMs;
    this.startedAt = this.realNow();
    this.speedValue = speed;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export class Autoplay {
  private timer: unknown = null;
  private running = false;
  /** Set while `tick` prints: its own patches need no re-plan each. */
  private ticking = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly world: World,
    private readonly clock: ScenarioClock,
    private readonly seed: number | string,
    private readonly timers: Timers = realTimers,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.world.onScheduleChange(() => {
      if (!this.ticking) this.arm();
    });
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Release everything due, with one story per print, then sleep until the next is due.
   * Public so tests (and the control API, after moving the clock) can step it.
   */
  tick(): void {
    const now = this.clock.now();
    this.ticking = true;
    try {
      for (const ed of [...this.world.state.eventDates.values()]) {
        if (this.printable(ed) && Date.parse(ed.dateUtc) <= now) this.print(ed);
      }
    } finally {
      this.ticking = false;
    }
    this.arm();
  }

  /** Real ms until the next release to print is due (scenario time runs at the clock's speed). */
  nextWakeMs(): number {
    let next = Infinity;
    for (const ed of this.world.state.eventDates.values()) {
      if (this.printable(ed)) next = Math.min(next, Date.parse(ed.dateUtc));
    }
    const speed = this.clock.speed;
    if (next === Infinity || speed <= 0) return MAX_SLEEP_MS;
    const ms = Math.ceil((next - this.clock.now()) / speed);
    return Math.min(MAX_SLEEP_MS, Math.max(0, ms));
  }

  private arm(): void {
    if (!this.running) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.tick();
    }, this.nextWakeMs());
  }

  /** A release autoplay prints: not yet printed, of an indicator, not a speech or holiday. */
  private printable(ed: SimEventDate): boolean {
    return ed.actual === null && hasValues(this.world.eventModel(ed.eventId)?.indicator ?? null);
  }

  private print(ed: SimEventDate): void {
    const ind = this.world.eventModel(ed.eventId)?.indicator;
    if (!ind) return;
    // the print planned when the calendar was generated, for the release's scheduled time:
    // a restart, or a fast demo that shows it sooner, prints the same value
    const at = this.world.drawTime(ed);
    const printed = printValues(this.seed, ind, at, ed.consensus);
    const patch: Record<string, unknown> = {
      actual: printed.actual,
      ratioDeviation: printed.ratioDeviation,
      isBetterThanExpected: printed.isBetterThanExpected,
    };
    // the previous period's figure revised with the print, as the agencies publish it
    const revised = revisionOf(this.seed, ind, at, ed.previous);
    if (revised !== null) patch.revised = revised;
    const done = this.world.patchEventDate(ed.id, patch);
    if (done) this.publishPrintStory(done);
  }

  /**
   * One story about a print, in each culture, with the print's own tags: the market story
   * written about it when there is one (as the start-up news has), else the plain one.
   */
  private publishPrintStory(ed: Parameters<typeof afterPrint>[0]): void {
    const story = afterPrint(ed, 0);
    if (!story) return;
    const tied = tiedStoryFor(ed);
    const tags = tied ? [...story.tags, tied.tag] : story.tags;
    for (const culture of CULTURES) {
      const title = (tied ?? story).title[culture];
      const body = (tied ?? story).body[culture] ?? '';
      if (!title) continue;
      this.world.createPost({
        culture,
        id: uuid(postRng(this.seed, culture, title)),
        title,
        content: `<p>${body}</p>`,
        summary: body,
        tags: [...new Set(tags)],
        category: tied?.category ?? story.category,
      });
    }
  }
}
