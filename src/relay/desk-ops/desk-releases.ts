/**
 * The desk's one view of the calendar with its own keys, the past week to two days ahead:
 * the replay names the prints in its log from it, the admin page and the desk alerts list
 * the next releases from it. One `eventDates` request per minute, whoever asks
 * (calendar-feed/release-window.ts).
 */
import type { TokenManager } from '../../node/oauth/token-manager.js';
import { ReleaseWindow, type WindowSnapshot } from '../calendar-feed/release-window.js';

export interface DeskReleases {
  /** The window, read with the desk's keys; fails saying what the relay lacks. */
  get(tokens: TokenManager | null): Promise<WindowSnapshot>;
}

export function deskReleases(opts: { calendarUrl: string; now: () => number }): DeskReleases {
  const window = new ReleaseWindow({
    calendarUrl: opts.calendarUrl,
    ttlMs: 60_000,
    pastDays: 7,
    aheadDays: 2,
    now: opts.now,
  });
  return {
    get(tokens) {
      if (!opts.calendarUrl)
        return Promise.reject(new Error('the relay was started without the calendar URL'));
      if (!tokens)
        return Promise.reject(new Error('the relay has no provider keys (relay keys set)'));
      return window.get(tokens);
    },
  };
}
