/**
 * The optional alert when a news window opens and when it closes. Plans a minute at a time
 * (settings and calendar changes are picked up within one), arms only the next edge, and
 * announces each edge once. Not recorded in the alert history: it is about the clock, not
 * a print.
 */
import type { EventDate, NativeNotification } from '../../shared/domain.js';
import { Emitter, type Event } from '../../shared/event.js';
import {
  newsWindows,
  windowName,
  type NewsWindow,
  type NewsWindowSettings,
} from '../../shared/news-windows.js';
import type { Timers } from '../../shared/timers.js';
import type { UpcomingQuery } from '../alerts/port.js';
import { formatTime } from '../alerts/zone.js';

export interface NewsWindowAlertsOptions {
  settings: () => NewsWindowSettings;
  upcoming: (q: UpcomingQuery) => EventDate[];
  timeZone: () => string;
  hourCycle: () => 'h12' | 'h23';
  now: () => number;
  timers: Timers;
  onError: (err: unknown) => void;
}

const PLAN_MS = 60_000;
const MINUTE = 60_000;
/** An edge a re-plan finds just behind it (the timer and the plan raced) still counts. */
const GRACE_MS = 5_000;

type Edge = { at: number; kind: 'open' | 'close'; window: NewsWindow };

/** An edge's name: announced once, whichever plan finds it. */
const key = (e: Edge) => `${e.kind}:${e.window.start}`;

export class NewsWindowAlerts {
  private planTimer: unknown = null;
  private edgeTimer: unknown = null;
  private readonly announced = new Set<string>();
  private readonly didNotify: Emitter<NativeNotification>;
  /** A window opened or closed: show this (never recorded in the history). */
  readonly onDidNotify: Event<NativeNotification>;
  private running = false;
  /**
   * Since when the alerts are on (the app's start, or the moment they were turned on): an
   * edge before it is not news, and a window already open then is announced as open at
   * once — never a lone "closed" for a window the trader was not told about.
   */
  private onSince: number | null = null;

  constructor(private readonly o: NewsWindowAlertsOptions) {
    this.didNotify = new Emitter<NativeNotification>(o.onError);
    this.onDidNotify = this.didNotify.event;
  }

  start(): void {
    this.running = true;
    this.plan();
  }

  /** The calendar or the settings changed: plan now rather than within the minute. */
  replan(): void {
    if (this.running) this.plan();
  }

  stop(): void {
    this.running = false;
    this.clearTimers();
  }

  private clearTimers(): void {
    if (this.planTimer !== null) this.o.timers.clearTimeout(this.planTimer);
    if (this.edgeTimer !== null) this.o.timers.clearTimeout(this.edgeTimer);
    this.planTimer = this.edgeTimer = null;
  }

  private plan(): void {
    this.clearTimers();
    try {
      const edge = this.nextEdge();
      if (edge)
        this.edgeTimer = this.o.timers.setTimeout(() => this.fire(edge), edge.at - this.o.now());
    } catch (err) {
      this.o.onError(err);
    }
    this.planTimer = this.o.timers.setTimeout(() => this.plan(), PLAN_MS);
  }

  private nextEdge(): Edge | null {
    const s = this.o.settings();
    if (!s.enabled || !s.alerts) {
      this.onSince = null;
      return null;
    }
    const now = this.o.now();
    const since = (this.onSince ??= now);
    const dates = this.o.upcoming({
      from: new Date(now - (s.minutesAfter + 1) * MINUTE).toISOString(),
      to: new Date(now + (s.minutesBefore + 2) * MINUTE + PLAN_MS).toISOString(),
    });
    const edges = newsWindows(dates, s).flatMap((w): Edge[] => [
      { at: Math.max(w.start, since), kind: 'open', window: w },
      { at: w.end, kind: 'close', window: w },
    ]);
    return (
      edges
        .filter(
          (e) =>
            e.at > now - GRACE_MS &&
            e.at <= now + PLAN_MS &&
            e.window.end > since &&
            !this.announced.has(key(e)),
        )
        .sort((a, b) => a.at - b.at)[0] ?? null
    );
  }

  private fire(edge: Edge): void {
    this.edgeTimer = null;
    this.announced.add(key(edge));
    if (this.announced.size > 500)
      this.announced.delete(this.announced.values().next().value as string);
    try {
      this.didNotify.fire(this.notification(edge));
    } catch (err) {
      this.o.onError(err);
    }
    this.plan(); // the next edge may be seconds away (back-to-back windows)
  }

  private notification({ kind, window: w }: Edge): NativeNotification {
    const time = (ms: number) =>
      formatTime(new Date(ms).toISOString(), this.o.timeZone(), this.o.hourCycle());
    const first = w.releases[0];
    const target = first
      ? { type: 'eventDate' as const, eventDateId: first.id, eventId: first.eventId }
      : { type: 'alerts' as const };
    const releases = w.releases.map(
      (r) => `${r.countryCode} ${r.name} ${time(Date.parse(r.dateUtc))}`,
    );
    return kind === 'open'
      ? {
          title: `News window open: ${windowName(w)}`,
          body: `No trading until ${time(w.end)}. ${releases.join(', ')}`,
          target,
          alertIds: [],
          silent: false,
        }
      : {
          title: `News window closed: ${windowName(w)}`,
          body: 'Trading allowed again.',
          target,
          alertIds: [],
          silent: false,
        };
  }
}
