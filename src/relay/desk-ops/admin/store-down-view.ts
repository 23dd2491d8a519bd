/**
 * The desk page when the desk's store does not answer (#43 item 4): instead of a 503, what
 * this node knows — its own health now (the store's reason, the durability it promises, a
 * store found lost), its streams and head, and the last page it built while the store
 * answered (traders, other nodes, releases), dated, so the lead is never blind.
 */
import type { Logger } from 'pino';
import type { EventLog } from '../../log/event-log.js';
import type { AdminSnapshot } from './admin-view.js';

export interface StoreDownViewOptions {
  events: EventLog;
  /** This node's open streams. */
  hub: { size: number };
  node: () => string;
  now: () => number;
  logger?: Logger;
}

export class StoreDownView {
  private lastGood: AdminSnapshot | null = null;

  constructor(private readonly opts: StoreDownViewOptions) {}

  /** A snapshot built from the store: kept as the last good one. */
  remember(s: AdminSnapshot): AdminSnapshot {
    this.lastGood = s;
    return s;
  }

  /**
   * The snapshot, or what this node knows when the store cannot answer for it, with the
   * desk alerts open as this node last saw them (desk-alerts.ts).
   */
  async snapshot(
    build: () => Promise<AdminSnapshot>,
    openAlerts: () => string[],
  ): Promise<AdminSnapshot> {
    try {
      return this.remember(await build());
    } catch (err) {
      this.opts.logger?.warn({ err }, 'the desk page is built from what this node knows');
      return this.fromNode(openAlerts());
    }
  }

  private fromNode(openAlerts: string[]): AdminSnapshot {
    const { events, now } = this.opts;
    const h = events.health();
    const reason = h.ok ? "the desk's store did not answer the page's reads" : (h.reason ?? '');
    const at = now();
    const self = {
      node: this.opts.node(),
      streams: this.opts.hub.size,
      ingestPerSecond: 0,
      storeOk: false,
      storeReason: reason,
      reportedAt: at,
      stale: false,
      silentReason: null,
    };
    const last = this.lastGood;
    const others = (last?.nodes ?? []).filter((n) => n.node !== self.node);
    return {
      generatedAt: at,
      head: events.lastId(),
      lagThresholdSeconds: last?.lagThresholdSeconds ?? 60,
      traders: last?.traders ?? [],
      nodes: [self, ...others].sort((a, b) => a.node.localeCompare(b.node)),
      releases: last?.releases ?? [],
      releasesError: last ? last.releasesError : 'not known while the store does not answer',
      deliveries: null,
      storeUnavailable: {
        reason,
        knownAt: last?.generatedAt ?? null,
        durability: h.durability ?? null,
        storeLostAt: h.storeLost?.at ?? null,
        openAlerts,
      },
    };
  }
}
