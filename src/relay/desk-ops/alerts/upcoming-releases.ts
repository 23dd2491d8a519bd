/**
 * The next HIGH-volatility releases, from the calendar with the desk's own keys: the same
 * shared `eventDates` window the calendar feeds are cut from (calendar-feed/release-window.ts),
 * so the admin page costs the service one request per cache period.
 */
import type { TokenManager } from '../../../node/oauth/token-manager.js';
import type { HttpClient } from '../../../node/http/client.js';
import { ReleaseWindow } from '../../calendar-feed/release-window.js';

export interface UpcomingRelease {
  id: string;
  eventId: string;
  name: string;
  countryCode: string;
  at: number;
}

export function upcomingReleases(opts: {
  calendarUrl: string;
  tokens: () => TokenManager | null;
  now: () => number;
  /** How far ahead to look (default 24 h) and how many to list (default 10). */
  aheadMs?: number;
  limit?: number;
  cacheMs?: number;
  http?: HttpClient;
}): () => Promise<UpcomingRelease[]> {
  const window = new ReleaseWindow({
    calendarUrl: opts.calendarUrl,
    ttlMs: opts.cacheMs ?? 60_000,
    pastDays: 0,
    aheadDays: 2,
    http: opts.http,
    now: opts.now,
  });
  return async () => {
    if (!opts.calendarUrl) throw new Error('the relay was started without the calendar URL');
    const tokens = opts.tokens();
    if (!tokens) throw new Error('the relay has no provider keys (relay keys set)');
    const { items } = await window.get(tokens);
    const now = opts.now();
    const until = now + (opts.aheadMs ?? 86_400_000);
    return items
      .filter((d) => String(d.volatility).toUpperCase() === 'HIGH')
      .map((d) => ({
        id: d.id,
        eventId: d.eventId,
        name: d.name,
        countryCode: d.countryCode,
        at: Date.parse(d.dateUtc),
      }))
      .filter((r) => r.at > now && r.at <= until)
      .sort((a, b) => a.at - b.at)
      .slice(0, opts.limit ?? 10);
  };
}
