/**
 * The scenario clock: scenario time runs at `speed` × real time. With autoplay on, it
 * releases actual values when their time comes (sometimes revising the previous value),
 * on the calendar's real schedule only (no invented releases: they would pollute the
 * histories and z-scores), and publishes one story per print, tagged with its currency
 * and pair, in each news culture.
 */
import { printRng, printValues } from './data/calendar.js';
import { CULTURES, postRng, tiedStoryFor } from './data/news.js';
import { afterPrint } from './data/release-news.js';
import { createRng, round, uuid, type Rng } from './rng.js';
import type { World } from './world.js';

export class ScenarioClock {
  private base: number;
  private startedAt = Date.now();
  private offsetMs = 0;

  constructor(
    start: number,
    private speedValue: number,
  ) {
    this.base = start;
  }

  now = (): number => this.base + (Date.now() - this.startedAt) * this.speedValue + this.offsetMs;

  get speed(): number {
    return this.speedValue;
  }

  setSpeed(speed: number): void {
    this.base = this.now() - this.offsetMs;
    this.startedAt = Date.now();
    this.speedValue = speed;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export class Autoplay {
  private timer: NodeJS.Timeout | null = null;
  private readonly rng: Rng;

  constructor(
    private readonly world: World,
    private readonly clock: ScenarioClock,
    private readonly seed: number | string,
    private readonly tickMs = 1_000,
  ) {
    this.rng = createRng(`${seed}:autoplay`);
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Release everything due, with one story per print. Public so tests can step it. */
  tick(): void {
    const now = this.clock.now();
    for (const ed of [...this.world.state.eventDates.values()]) {
      if (ed.actual !== null || Date.parse(ed.dateUtc) > now) continue;
      const model = this.world.eventModel(ed.eventId);
      const ind = model?.indicator;
      if (!ind || ind.speech || ind.category === 'holidays') continue;
      // the print planned when the calendar was generated: a restart shows the same value
      const at = Date.parse(ed.dateUtc);
      const printed = printValues(ind, ed.consensus, printRng(this.seed, ind.key, at));
      const patch: Record<string, unknown> = {
        actual: printed.actual,
        ratioDeviation: printed.ratioDeviation,
        isBetterThanExpected: printed.isBetterThanExpected,
      };
      if (ed.previous !== null && ind.spread > 0 && this.rng() < 0.25) {
        patch.revised = round(ed.previous + (this.rng() - 0.5) * ind.spread, ind.decimals);
      }
      const done = this.world.patchEventDate(ed.id, patch);
      if (done) this.publishPrintStory(done);
    }
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
