/**
 * Where the relay keeps what each desktop said about itself: who it is (user, app version,
 * OS), which node it streams from, whether that stream is open, and the last event id it
 * applied. Two backends: this node's memory (one node; presence is soft state a restart
 * rebuilds within seconds) or Redis (redis-presence-store.ts, so every node sees every
 * desktop). Nodes also publish their own figures here for the admin page.
 */
import type { AlertsToday } from '../../../shared/desk-alerts-today.js';
import type { AppliedHistory } from '../../../shared/desk-applied.js';

export interface DesktopIdentity {
  user: string;
  /** A random id the app keeps per install (one user may run several desktops). */
  desktop: string;
  appVersion: string;
  os: string;
  node: string;
}

export interface DesktopPresence extends DesktopIdentity {
  /** The stream was open at the last report (see `isConnected` for staleness). */
  connected: boolean;
  connectedAt: number;
  disconnectedAt: number | null;
  lastSeenAt: number;
  appliedId: string | null;
  appliedAt: number | null;
  /** The prints it alerted today, as it last said (null: not said). */
  alertsToday: AlertsToday | null;
  /** When it applied its last batches, as it last said ([]: not said, an older app). */
  appliedHistory: AppliedHistory;
}

export interface NodeReport {
  node: string;
  streams: number;
  /** Webhooks stored per second over the last report period. */
  ingestPerSecond: number;
  storeOk: boolean;
  storeReason: string | null;
  /**
   * What an acknowledgement promises when it is weaker than the default, or may no longer
   * hold (settings changed at runtime): the page shows it instead of "ok". Absent: default.
   */
  durability?: string | null;
  reportedAt: number;
  /** Where the other nodes reach its /healthz (to say why it went silent). */
  url?: string;
}

export interface PresenceStore {
  readonly backend: 'memory' | 'redis';
  /**
   * A desktop opened a stream (`connection` tells this stream from its later ones); false
   * (nothing recorded) when it is new and its user already has `maxDesktops` seen within
   * PRESENCE_KEEP_MS.
   */
  opened(who: DesktopIdentity, connection: string, at: number): Promise<boolean>;
  /** That stream closed; ignored when the desktop has opened a newer one since. */
  closed(user: string, desktop: string, connection: string, at: number): Promise<void>;
  /**
   * The desktop applied up to `appliedId` (and said today's alerts and its applied times,
   * kept until it says them again); false when it never opened a stream.
   */
  ack(
    user: string,
    desktop: string,
    appliedId: string,
    at: number,
    alerts?: AlertsToday | null,
    applied?: AppliedHistory | null,
  ): Promise<boolean>;
  list(): Promise<DesktopPresence[]>;
  reportNode(report: NodeReport): Promise<void>;
  nodes(): Promise<NodeReport[]>;
  /** A retired node no longer listed (`relay nodes forget`); false when it was not. */
  forgetNode(node: string): Promise<boolean>;
  close(): Promise<void>;
}

/** A desktop that has not been heard from for this long counts as gone (its node died). */
export const PRESENCE_STALE_MS = 30_000;
/** A desktop unheard for this long is forgotten (its row expires; a new one may take its place). */
export const PRESENCE_KEEP_MS = 10 * 60_000;
/** Desktops one user may have seen within PRESENCE_KEEP_MS (a new one past it: 429). */
export const MAX_DESKTOPS_PER_USER = 10;

export function isConnected(p: DesktopPresence, now: number): boolean {
  return p.connected && now - p.lastSeenAt < PRESENCE_STALE_MS;
}

export class MemoryPresenceStore implements PresenceStore {
  readonly backend = 'memory';
  private readonly desktops = new Map<string, DesktopPresence & { connection: string }>();
  /** Each user's desktop keys, to count them. */
  private readonly byUser = new Map<string, Set<string>>();
  private readonly nodeReports = new Map<string, NodeReport>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxDesktops = MAX_DESKTOPS_PER_USER,
  ) {}

  /** Forgets the user's desktops unheard for PRESENCE_KEEP_MS; how many are left. */
  private live(user: string, at: number): Set<string> {
    const keys = this.byUser.get(user) ?? new Set<string>();
    for (const key of keys) {
      const p = this.desktops.get(key);
      if (p && at - p.lastSeenAt < PRESENCE_KEEP_MS) continue;
      this.desktops.delete(key);
      keys.delete(key);
    }
    this.byUser.set(user, keys);
    return keys;
  }

  opened(who: DesktopIdentity, connection: string, at: number): Promise<boolean> {
    const key = `${who.user}:${who.desktop}`;
    const keys = this.live(who.user, at);
    if (!keys.has(key) && keys.size >= this.maxDesktops) return Promise.resolve(false);
    keys.add(key);
    const before = this.desktops.get(key);
    this.desktops.set(key, {
      ...who,
      connection,
      connected: true,
      connectedAt: at,
      disconnectedAt: null,
      lastSeenAt: at,
      appliedId: before?.appliedId ?? null,
      appliedAt: before?.appliedAt ?? null,
      alertsToday: before?.alertsToday ?? null,
      appliedHistory: before?.appliedHistory ?? [],
    });
    return Promise.resolve(true);
  }

  closed(user: string, desktop: string, connection: string, at: number): Promise<void> {
    const p = this.desktops.get(`${user}:${desktop}`);
    if (p && p.connection === connection) {
      p.connected = false;
      p.disconnectedAt = at;
    }
    return Promise.resolve();
  }

  ack(
    user: string,
    desktop: string,
    appliedId: string,
    at: number,
    alerts: AlertsToday | null = null,
    applied: AppliedHistory | null = null,
  ): Promise<boolean> {
    const p = this.desktops.get(`${user}:${desktop}`);
    if (!p) return Promise.resolve(false);
    if (alerts) p.alertsToday = alerts;
    if (applied) p.appliedHistory = applied;
    p.appliedId = appliedId;
    p.appliedAt = at;
    p.lastSeenAt = at;
    return Promise.resolve(true);
  }

  list(): Promise<DesktopPresence[]> {
    const now = this.now();
    for (const user of [...this.byUser.keys()])
      if (this.live(user, now).size === 0) this.byUser.delete(user);
    return Promise.resolve(
      [...this.desktops.values()].map(({ connection: _c, ...p }) => ({ ...p })),
    );
  }

  reportNode(report: NodeReport): Promise<void> {
    this.nodeReports.set(report.node, report);
    return Promise.resolve();
  }

  nodes(): Promise<NodeReport[]> {
    return Promise.resolve([...this.nodeReports.values()]);
  }

  forgetNode(node: string): Promise<boolean> {
    return Promise.resolve(this.nodeReports.delete(node));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
