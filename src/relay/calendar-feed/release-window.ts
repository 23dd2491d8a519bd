/**
 * The releases every feed is cut from: one `eventDates` request for the window (the past
 * week to the next 90 days) shared by all users and kept for `ttlMs`, with one request in
 * flight at a time — so calendar apps polling every feed every minute cost the service one
 * request a minute, not one per user per poll.
 */
import type { EventDate } from '../../shared/domain.js';
import { defaultHttpClient, type HttpClient } from '../../node/http/client.js';
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { fetchEventDates } from '../../node/service/event-dates.js';

const DAY_MS = 86_400_000;

export interface ReleaseWindowOptions {
  calendarUrl: string;
  ttlMs: number;
  pastDays: number;
  aheadDays: number;
  http?: HttpClient;
  now: () => number;
}

export interface WindowSnapshot {
  items: EventDate[];
  fetchedAt: number;
}

export class ReleaseWindow {
  private snapshot: WindowSnapshot | null = null;
  private inflight: Promise<WindowSnapshot> | null = null;

  constructor(private readonly opts: ReleaseWindowOptions) {}

  /** The cached window, or a fresh one when it is older than the TTL. */
  get(tokens: TokenManager): Promise<WindowSnapshot> {
    const { now, ttlMs } = this.opts;
    if (this.snapshot && now() - this.snapshot.fetchedAt < ttlMs)
      return Promise.resolve(this.snapshot);
    this.inflight ??= this.fetch(tokens).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async fetch(tokens: TokenManager): Promise<WindowSnapshot> {
    const t = this.opts.now();
    const { items } = await fetchEventDates(
      {
        calendarUrl: () => this.opts.calendarUrl,
        tokens,
        http: this.opts.http ?? defaultHttpClient(),
      },
      new Date(t - this.opts.pastDays * DAY_MS),
      new Date(t + this.opts.aheadDays * DAY_MS),
    );
    this.snapshot = { items, fetchedAt: t };
    return this.snapshot;
  }
}
