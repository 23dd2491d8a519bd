/**
 * The next HIGH-volatility releases, read from the desk's release window
 * (desk-ops/desk-releases.ts, shared with the replay's release names): the admin page and
 * the desk alerts cost the service one request per cache period.
 */
import type { TokenManager } from '../../../node/oauth/token-manager.js';
import type { DeskReleases } from '../desk-releases.js';

export interface UpcomingRelease {
  id: string;
  eventId: string;
  name: string;
  countryCode: string;
  at: number;
}

export function upcomingReleases(opts: {
  releases: DeskReleases;
  tokens: () => TokenManager | null;
  now: () => number;
  /** How far ahead to look (default 24 h, at most the window's) and how many to list (10). */
  aheadMs?: number;
  limit?: number;
}): () => Promise<UpcomingRelease[]> {
  return async () => {
    const { items } = await opts.releases.get(opts.tokens());
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
