/**
 * Release names by the service's event-date id, for the prints in the relay's log (whose
 * webhooks carry only ids): read from the desk's release window (desk-ops/desk-releases.ts).
 */
import type { TokenManager } from '../../../node/oauth/token-manager.js';
import type { DeskReleases } from '../desk-releases.js';

export function releaseNames(opts: {
  releases: DeskReleases;
  tokens: () => TokenManager | null;
}): () => Promise<Map<string, string>> {
  return async () => {
    const { items } = await opts.releases.get(opts.tokens());
    return new Map(items.map((d) => [d.id, d.name]));
  };
}
