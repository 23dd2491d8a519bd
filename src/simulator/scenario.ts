/**
 * The scenario clock: scenario time runs at `speed` × real time. With autoplay on, it
 * releases actual values when their time comes (sometimes revising the previous value),
 * and keeps demo mode alive: a new near-term release every ~40 s, a reschedule now and
 * then, and news posts published and edited.
 */
import { printValues } from './data/calendar.js';
import { CULTURES, randomStory } from './data/news.js';
import { INDICATORS } from './data/indicators.js';
import { createRng, pick, round, type Rng } from './rng.js';
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
  private lastLive = 0;
  private lastPost = 0;

  constructor(
    private readonly world: World,
    private readonly clock: ScenarioClock,
    seed: number | string,
    private readonly tickMs = 1_000,
  ) {
    this.rng = createRng(`${seed}:autoplay`);
  }

  start(): void {
    this.lastLive = this.lastPost = this.clock.now();
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Release everything due, then maybe add life. Public so tests can step it. */
  tick(): void {
    const now = this.clock.now();
    for (const ed of [...this.world.state.eventDates.values()]) {
      if (ed.actual !== null || Date.parse(ed.dateUtc) > now) continue;
      const model = this.world.eventModel(ed.eventId);
      const ind = model?.indicator;
      if (!ind || ind.speech || ind.category === 'holidays') continue;
      const printed = printValues(ind, ed.consensus, this.rng);
      const patch: Record<string, unknown> = {
        actual: printed.actual,
        ratioDeviation: printed.ratioDeviation,
        isBetterThanExpected: printed.isBetterThanExpected,
      };
      if (ed.previous !== null && ind.spread > 0 && this.rng() < 0.25) {
        patch.revised = round(ed.previous + (this.rng() - 0.5) * ind.spread, ind.decimals);
      }
      this.world.patchEventDate(ed.id, patch);
    }
    const speed = Math.max(1, this.clock.speed);
    if (now - this.lastLive > 40_000 * speed) {
      this.lastLive = now;
      this.addLiveRelease(now);
    }
    if (now - this.lastPost > 45_000 * speed) {
      this.lastPost = now;
      this.publishOrEdit(now);
    }
  }

  private addLiveRelease(now: number): void {
    const withValues = INDICATORS.filter((i) => !i.speech && i.category !== 'holidays');
    const ind = pick(this.rng, withValues);
    const model = [...this.world.state.events.values()].find((m) => m.indicator?.key === ind.key);
    if (!model) return;
    const at = Math.ceil((now + 25_000) / 1000) * 1000;
    this.world.createEventDate({ eventId: model.event.id, dateUtc: new Date(at).toISOString() });
    // now and then, move an upcoming release by half an hour
    if (this.rng() < 0.2) {
      const upcoming = [...this.world.state.eventDates.values()].filter(
        (d) => d.actual === null && Date.parse(d.dateUtc) > now + 3_600_000,
      );
      if (upcoming.length > 0) {
        const d = pick(this.rng, upcoming);
        this.world.patchEventDate(d.id, {
          dateUtc: new Date(Date.parse(d.dateUtc) + 30 * 60_000).toISOString(),
        });
      }
    }
  }

  private publishOrEdit(now: number): void {
    const culture = pick(this.rng, CULTURES);
    if (this.rng() < 0.2) {
      const mine = [...this.world.state.posts.values()]
        .filter((p) => p.Culture === culture)
        .slice(0, 5);
      if (mine.length > 0) {
        const p = pick(this.rng, mine);
        this.world.patchPost(p.Id, culture, { summary: `${p.Summary} (updated)` });
        return;
      }
    }
    const story = randomStory(this.rng);
    this.world.createPost({
      culture,
      title: story.title[culture],
      content: `<p>${story.body[culture] ?? ''}</p>`,
      summary: story.body[culture],
    });
    void now;
  }
}
