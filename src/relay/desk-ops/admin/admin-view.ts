/**
 * What the admin page and `relay status` show, built from presence, the log and the
 * calendar: per trader each desktop's state and applied lag, per node its figures, and the
 * next HIGH releases with the watchers who would miss them right now.
 */
import { utcDayStart, type AlertsToday } from '../../../shared/desk-alerts-today.js';
import type { EventLog } from '../../log/event-log.js';
import type { DeliveryLog } from '../replay/delivery-log.js';
import type { LogPositions } from '../replay/log-positions.js';
import type { UserStore } from '../../users/user-store.js';
import {
  PRESENCE_STALE_MS,
  isConnected,
  type DesktopPresence,
  type NodeReport,
  type PresenceStore,
} from '../presence/presence-store.js';
import type { UpcomingRelease } from '../alerts/upcoming-releases.js';

/** Events read at most to count a desktop's lag (beyond: "at least this many"). */
export const LAG_COUNT_CAP = 1000;

export interface DesktopRow {
  desktop: string;
  connected: boolean;
  /** When the current state began: connected at, or disconnected at. */
  since: number;
  appVersion: string;
  os: string;
  node: string;
  appliedId: string | null;
  lagEvents: number;
  lagCapped: boolean;
  lagSeconds: number;
  lastSeenAt: number;
  /** The prints it alerted today (UTC) and how late; null when it has not said today. */
  alertsToday: AlertsToday | null;
}

export interface TraderRow {
  user: string;
  connected: boolean;
  desktops: DesktopRow[];
  /** Today's prints of the desktop that alerted the most (one trader, one alert per print). */
  alertsToday: AlertsToday | null;
}

export interface MissRow {
  user: string;
  reason: 'no desktop connected' | 'lagging';
}

export interface ReleaseRow extends UpcomingRelease {
  watchers: string[];
  wouldMiss: MissRow[];
}

export interface AdminSnapshot {
  generatedAt: number;
  head: string;
  /** Lag past this counts as "would miss". */
  lagThresholdSeconds: number;
  traders: TraderRow[];
  /** `silentReason`: for a stale node, why (asked of the node itself), else null. */
  nodes: (NodeReport & { stale: boolean; silentReason: string | null })[];
  releases: ReleaseRow[];
  releasesError: string | null;
  /** The delivery log of the last hour, newest first (at most RECENT_DELIVERIES rows); null when not asked for. */
  deliveries: (DeliveryLog & { since: number; until: number }) | null;
  /**
   * Set when the desk's store did not answer (store-down-view.ts): this node's own view,
   * with the rest from the last good page (`knownAt`, null when there was none).
   */
  storeUnavailable?: {
    reason: string;
    knownAt: number | null;
    durability: string | null;
    storeLostAt: number | null;
    /** The desk alerts open as this node last saw them. */
    openAlerts: string[];
  };
}

/** Rows of the delivery log on the admin page (the full range: /admin/log). */
export const RECENT_DELIVERIES = 25;
const HOUR_MS = 3_600_000;

export interface AdminViewDeps {
  events: EventLog;
  /** The log's last positions: a desktop's lag without reading the log. */
  positions: LogPositions;
  users: Pick<UserStore, 'list'>;
  presence: PresenceStore;
  watchlist: (user: string) => Promise<string[]>;
  releases: () => Promise<UpcomingRelease[]>;
  log: (since: number, until: number) => Promise<DeliveryLog>;
  lagThresholdSeconds: number;
  /** Why a node that stopped reporting did (silent-node.ts); none: unknown. */
  silentReason?: (url: string | undefined) => Promise<string | null>;
  now: () => number;
}

/** O(log n) per desktop, whatever it says it applied: positions only, never the log's bodies. */
function desktopRow(p: DesktopPresence, positions: LogPositions, now: number): DesktopRow {
  const lag = positions.lag(p.appliedId, now);
  const connected = isConnected(p, now);
  return {
    desktop: p.desktop,
    connected,
    since: connected ? p.connectedAt : (p.disconnectedAt ?? p.lastSeenAt + PRESENCE_STALE_MS),
    appVersion: p.appVersion,
    os: p.os,
    node: p.node,
    appliedId: p.appliedId,
    lagEvents: lag.events,
    lagCapped: lag.capped,
    lagSeconds: Math.round(lag.seconds),
    lastSeenAt: p.lastSeenAt,
    alertsToday: p.alertsToday?.day === utcDayStart(now) ? p.alertsToday : null,
  };
}

/** Why a trader would miss a release now, or null when one desktop is live and current. */
export function missReason(t: TraderRow, lagThresholdSeconds: number): MissRow['reason'] | null {
  const live = t.desktops.filter((d) => d.connected);
  if (live.length === 0) return 'no desktop connected';
  return live.some((d) => d.lagSeconds <= lagThresholdSeconds) ? null : 'lagging';
}

export async function traderRows(deps: AdminViewDeps): Promise<TraderRow[]> {
  const now = deps.now();
  const [users, presence] = await Promise.all([deps.users.list(), deps.presence.list()]);
  const active = users.filter((u) => u.revokedAt === null).map((u) => u.name);
  const seen = new Set(presence.map((p) => p.user));
  const names = [...new Set([...active, ...seen])];
  const byUser = new Map<string, DesktopPresence[]>();
  for (const p of presence) byUser.set(p.user, [...(byUser.get(p.user) ?? []), p]);
  return names.sort().map((user) => {
    const desktops = (byUser.get(user) ?? []).map((p) => desktopRow(p, deps.positions, now));
    const said = desktops.flatMap((d) => (d.alertsToday ? [d.alertsToday] : []));
    const alertsToday = said.sort((a, b) => b.count - a.count)[0] ?? null;
    return { user, connected: desktops.some((d) => d.connected), desktops, alertsToday };
  });
}

/** The last hour's deliveries, newest first. */
async function recentDeliveries(deps: AdminViewDeps, now: number) {
  const since = now - HOUR_MS;
  const log = await deps.log(since, now);
  const events = log.events.slice(-RECENT_DELIVERIES).reverse();
  return {
    since,
    until: now,
    events,
    truncated: log.truncated || log.events.length > events.length,
  };
}

async function releaseRows(deps: AdminViewDeps, traders: TraderRow[]) {
  let releases: ReleaseRow[] = [];
  let releasesError: string | null = null;
  try {
    const upcoming = await deps.releases();
    const lists = new Map(
      await Promise.all(traders.map(async (t) => [t.user, await deps.watchlist(t.user)] as const)),
    );
    releases = upcoming.map((r) => {
      const watchers = traders.filter((t) => lists.get(t.user)?.includes(r.eventId.toLowerCase()));
      const wouldMiss = watchers.flatMap((t) => {
        const reason = missReason(t, deps.lagThresholdSeconds);
        return reason ? [{ user: t.user, reason }] : [];
      });
      return { ...r, watchers: watchers.map((t) => t.user), wouldMiss };
    });
  } catch (err) {
    releasesError = (err as Error).message;
  }
  return { releases, releasesError };
}

/** `deliveries: false`: without the delivery log (the desk alerts need none). */
export async function adminSnapshot(
  deps: AdminViewDeps,
  opts: { deliveries?: boolean } = {},
): Promise<AdminSnapshot> {
  const now = deps.now();
  const traders = await traderRows(deps);
  const nodes = await Promise.all(
    (await deps.presence.nodes()).map(async (n) => {
      const stale = now - n.reportedAt > PRESENCE_STALE_MS;
      const silentReason = stale ? ((await deps.silentReason?.(n.url)) ?? null) : null;
      return { ...n, stale, silentReason };
    }),
  );
  return {
    generatedAt: now,
    head: deps.events.lastId(),
    lagThresholdSeconds: deps.lagThresholdSeconds,
    traders,
    nodes: nodes.sort((a, b) => a.node.localeCompare(b.node)),
    ...(await releaseRows(deps, traders)),
    deliveries: opts.deliveries === false ? null : await recentDeliveries(deps, now),
  };
}
