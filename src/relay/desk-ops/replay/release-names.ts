/**
 * Release names by the service's event-date id, for the prints in the relay's log (whose
 * webhooks carry only ids): the calendar with the desk's own keys, the past week to
 * tomorrow, one request per cache period whoever asks.
 */
import type { TokenManager } from '../../../node/oauth/token-manager.js';
import { ReleaseWindow } from '../../calendar-feed/release-window.js';

export function releaseNames(opts: {
  calendarUrl: string;
  tokens: () => TokenManager | null;
  now: () => number;
}): () => Promise<Map<string, string>> {
  const window = new ReleaseWindow({
    calendarUrl: opts.calendarUrl,
    ttlMs: 60_000,
    pastDays: 7,
    aheadDays: 1,
    now: opts.now,
  });
  return async () => {
    if (!opts.calendarUrl) throw new Error('the relay was started without the calendar URL');
    const tokens = opts.tokens();
    if (!tokens) throw new Error('the relay has no provider keys (relay keys set)');
    const { items } = await window.get(tokens);
    return new Map(items.map((d) => [d.id, d.name]));
  };
}
