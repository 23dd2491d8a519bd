/**
 * What the admin page and `relay status` show, built from presence, the log and the
 * calendar: per trader each desktop's state and applied lag, per node its figures, and the
 * next HIGH releases with the watchers who would miss them right now.
 */
import type { EventLog } from '../event-log.js';
import type { UserStore } from '../user-store.js';
import {
  PRESENCE_STALE_MS,
  isConnected,
  type DesktopPresence,
  type NodeReport,
  type PresenceStore,
} from './presence-store.js';
import type { UpcomingRelease } from './upcoming-releases.js';

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
}

export interface TraderRow {
  user: string;
  connected: boolean;
  desktops: DesktopRow[];
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
  nodes: (NodeReport & { stale: boolean })[];
  releases: ReleaseRow[];
  releasesError: string | null;
}

export interface AdminViewDeps {
  events: EventLog;
  users: Pick<UserStore, 'list'>;
  presence: PresenceStore;
  watchlist: (user: string) => Promise<string[]>;
  releases: () => Promise<UpcomingRelease[]>;
  lagThresholdSeconds: number;
  now: () => number;
}

async function desktopRow(p: DesktopPresence, events: EventLog, now: number): Promise<DesktopRow> {
  const behind = await events.after(p.appliedId ?? '0', LAG_COUNT_CAP + 1).catch(() => []);
  const first = behind[0];
  const connected = isConnected(p, now);
  return {
    desktop: p.desktop,
    connected,
    since: connected ? p.connectedAt : (p.disconnectedAt ?? p.lastSeenAt + PRESENCE_STALE_MS),
    appVersion: p.appVersion,
    os: p.os,
    node: p.node,
    appliedId: p.appliedId,
    lagEvents: Math.min(behind.length, LAG_COUNT_CAP),
    lagCapped: behind.length > LAG_COUNT_CAP,
    lagSeconds: first ? Math.max(0, Math.round((now - first.receivedAt) / 1000)) : 0,
    lastSeenAt: p.lastSeenAt,
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
  const names = [...new Set([...active, ...[...seen].filter((n) => !active.includes(n))])];
  return Promise.all(
    names.sort().map(async (user) => {
      const desktops = await Promise.all(
        presence.filter((p) => p.user === user).map((p) => desktopRow(p, deps.events, now)),
      );
      return { user, connected: desktops.some((d) => d.connected), desktops };
    }),
  );
}

export async function adminSnapshot(deps: AdminViewDeps): Promise<AdminSnapshot> {
  const now = deps.now();
  const traders = await traderRows(deps);
  const nodes = (await deps.presence.nodes()).map((n) => ({
    ...n,
    stale: now - n.reportedAt > PRESENCE_STALE_MS,
  }));
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
  return {
    generatedAt: now,
    head: deps.events.lastId(),
    lagThresholdSeconds: deps.lagThresholdSeconds,
    traders,
    nodes: nodes.sort((a, b) => a.node.localeCompare(b.node)),
    releases,
    releasesError,
  };
}
