/**
 * Mutations of the simulated world. Each one updates the state and sends the matching
 * webhook, so the control API and the scenario clock behave exactly alike.
 */
import { randomUUID } from 'node:crypto';
import {
  makeEventDate,
  surprise,
  type EventModel,
  type SimEvent,
  type SimEventDate,
} from './data/calendar.js';
import { makePost, type SimPost } from './data/news.js';
import type { Deliverer } from './deliveries.js';
import { ReplyError } from '../node/http/server/reply-error.js';
import { EDITABLE_EVENT_DATE_KEYS } from '../shared/domain/event-date-fields.js';
import { createRng, type Rng } from './rng.js';
import { postKey, type SimulatorState } from './state.js';

export class World {
  private readonly rng: Rng;
  private readonly scheduleListeners = new Set<() => void>();

  constructor(
    readonly state: SimulatorState,
    private readonly deliverer: Deliverer,
    private readonly clock: () => number,
    private readonly seed: number | string,
  ) {
    this.rng = createRng(`${seed}:world`);
  }

  /** Calls `fn` after a release is created, changed or deleted (autoplay re-plans its wake-up). */
  onScheduleChange(fn: () => void): () => void {
    this.scheduleListeners.add(fn);
    return () => this.scheduleListeners.delete(fn);
  }

  private scheduleChanged(): void {
    for (const fn of this.scheduleListeners) fn();
  }

  private stamp(prev = 0): number {
    return Math.max(prev + 1, Math.floor(this.clock() / 1000));
  }

  createEvent(
    input: Partial<SimEvent> & { name: string; countryCode: string; currencyCode: string },
  ): SimEvent {
    const event: SimEvent = {
      id: input.id ?? randomUUID(),
      description: '',
      categoryId: '24127F3B-EDCE-4DC4-AFDF-0B3BD8A964BE',
      periodType: 'MONTH',
      unit: null,
      potency: 'ZERO',
      volatility: 'MEDIUM',
      isSpeech: false,
      isReport: false,
      ...input,
    };
    this.state.events.set(event.id, { event, indicator: null, history: [] });
    this.deliverer.notify('calendar', { type: 'event_created', eventId: event.id });
    return event;
  }

  createEventDate(
    input: { eventId: string; dateUtc?: string } & Partial<SimEventDate>,
  ): SimEventDate {
    const model = this.state.events.get(input.eventId);
    if (!model) throw new ReplyError(404, 'not_found', `No event ${input.eventId}`);
    const date = input.dateUtc ? Date.parse(input.dateUtc) : this.clock() + 3_600_000;
    if (Number.isNaN(date)) throw new ReplyError(400, 'invalid_date', 'dateUtc must be ISO-8601');
    const last = [...this.state.eventDates.values()]
      .filter((d) => d.eventId === model.event.id)
      .at(-1);
    const base = makeEventDate(
      this.seed,
      model.event,
      model.indicator,
      date,
      this.rng,
      last?.actual ?? last?.previous ?? null,
      false,
      this.clock(),
    );
    // a record made already printed says how the print compares, as a release would
    const printed =
      typeof input.actual === 'number' && !('isBetterThanExpected' in input)
        ? surprise(model.indicator, input.actual, input.consensus ?? base.consensus)
        : {};
    const ed: SimEventDate = {
      ...base,
      ...printed,
      ...input,
      id: input.id ?? randomUUID(),
      dateUtc: new Date(date).toISOString().replace('.000Z', 'Z'),
      lastUpdated: this.stamp(),
    };
    this.state.eventDates.set(ed.id, ed);
    this.deliverer.notify('calendar', {
      type: 'eventDate_created',
      eventDateId: ed.id,
      eventId: ed.eventId,
      lastUpdated: ed.lastUpdated,
    });
    this.scheduleChanged();
    return ed;
  }

  /** Apply a patch; the webhook carries exactly the keys whose values changed. */
  patchEventDate(id: string, patch: Record<string, unknown>): SimEventDate {
    const ed = this.state.eventDates.get(id);
    if (!ed) throw new ReplyError(404, 'not_found', `No event date ${id}`);
    const next = { ...ed } as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) {
      if (!(EDITABLE_EVENT_DATE_KEYS as readonly string[]).includes(k))
        throw new ReplyError(400, 'invalid_key', `${k} cannot be changed`);
      if (k === 'dateUtc') {
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
          throw new ReplyError(400, 'invalid_date', 'dateUtc must be ISO-8601');
        next[k] = new Date(v).toISOString().replace('.000Z', 'Z');
      } else next[k] = v;
    }
    if (typeof patch.actual === 'number' && !('isBetterThanExpected' in patch)) {
      const model = this.state.events.get(ed.eventId);
      Object.assign(
        next,
        surprise(model?.indicator ?? null, patch.actual, (next.consensus as number | null) ?? null),
      );
      if (!model?.indicator && next.consensus !== null) {
        const c = next.consensus as number;
        next.isBetterThanExpected = patch.actual === c ? null : patch.actual > c;
        next.ratioDeviation = Math.max(-7, Math.min(7, Math.round((patch.actual - c) * 100) / 100));
      }
    }
    const changes = EDITABLE_EVENT_DATE_KEYS.filter(
      (k) => next[k] !== (ed as unknown as Record<string, unknown>)[k],
    ).map((key) => ({ key, value: next[key] }));
    const updated = {
      ...(next as unknown as SimEventDate),
      lastUpdated: this.stamp(ed.lastUpdated),
    };
    this.state.eventDates.set(id, updated);
    if (changes.length > 0) {
      this.deliverer.notify('calendar', {
        type: 'eventDate_updated',
        eventDateId: id,
        eventId: ed.eventId,
        lastUpdated: updated.lastUpdated,
        changes,
      });
    }
    this.scheduleChanged();
    return updated;
  }

  deleteEventDate(id: string): SimEventDate {
    const ed = this.state.eventDates.get(id);
    if (!ed) throw new ReplyError(404, 'not_found', `No event date ${id}`);
    this.state.eventDates.delete(id);
    this.deliverer.notify('calendar', {
      type: 'eventDate_deleted',
      eventDateId: id,
      eventId: ed.eventId,
      lastUpdated: this.stamp(ed.lastUpdated),
    });
    this.scheduleChanged();
    return ed;
  }

  createPost(input: {
    culture: string;
    title?: string;
    summary?: string;
    content?: string;
    id?: string;
    /** The story's own tags and category (a print's currency and pair), else random ones. */
    tags?: string[];
    category?: { Id: string; Name: string };
  }): SimPost {
    const base = makePost(this.rng, input.culture, this.clock());
    const post: SimPost = {
      ...base,
      Id: input.id ?? base.Id,
      Title: input.title ?? base.Title,
      Summary: input.summary ?? base.Summary,
      Content: input.content ?? base.Content,
      Culture: input.culture,
      ...(input.tags ? { Tags: input.tags.map((t) => ({ Id: `t-${t}`, Name: t })) } : {}),
      ...(input.category ? { Categories: [input.category] } : {}),
    };
    this.state.posts.set(postKey(input.culture, post.Id), post);
    this.deliverer.notify('news', {
      type: 'post_created',
      postId: post.Id,
      culture: input.culture,
      lastUpdated: this.stamp(),
    });
    return post;
  }

  patchPost(
    id: string,
    culture: string,
    patch: { title?: string; summary?: string; content?: string },
  ): SimPost {
    const key = postKey(culture, id);
    const post = this.state.posts.get(key);
    if (!post) throw new ReplyError(404, 'not_found', `No post ${id} in ${culture}`);
    const updated: SimPost = {
      ...post,
      Title: patch.title ?? post.Title,
      Summary: patch.summary ?? post.Summary,
      Content: patch.content ?? post.Content,
      UpdateDate: new Date(this.clock()).toISOString(),
    };
    this.state.posts.set(key, updated);
    this.deliverer.notify('news', {
      type: 'post_updated',
      postId: id,
      culture,
      lastUpdated: this.stamp(),
    });
    return updated;
  }

  deletePost(id: string, culture: string): SimPost {
    const key = postKey(culture, id);
    const post = this.state.posts.get(key);
    if (!post) throw new ReplyError(404, 'not_found', `No post ${id} in ${culture}`);
    this.state.posts.delete(key);
    this.deliverer.notify('news', {
      type: 'post_deleted',
      postId: id,
      culture,
      lastUpdated: this.stamp(),
    });
    return post;
  }

  /** The time a release's values are drawn for: its scheduled time, not a fast demo's. */
  drawTime(ed: SimEventDate): number {
    return this.state.scheduledAt.get(ed.id) ?? Date.parse(ed.dateUtc);
  }

  eventModel(id: string): EventModel | undefined {
    return this.state.events.get(id);
  }
}
