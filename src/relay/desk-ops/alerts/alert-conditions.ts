/**
 * What the desk should hear about right now, as conditions keyed so each is posted once:
 * this node's store down, webhooks failing to be stored since the last check, a node of
 * the desk that stopped reporting, and each
 * watcher who would miss a HIGH release within the lead time. When releases or presence
 * cannot be read, the would-miss conditions seen last time are kept (unknown is not
 * "recovered").
 */
import type { Logger } from 'pino';
import type { EventLog } from '../../log/event-log.js';
import type { AdminSnapshot } from '../admin/admin-view.js';

export type AlertKind =
  | 'would_miss'
  | 'store_down'
  | 'store_lost'
  | 'ingest_failing'
  | 'node_silent'
  | 'durability_unverified';

export interface Condition {
  key: string;
  kind: AlertKind;
  text: string;
  recovery: string;
  /** For would-miss: when the release is out (after it, a close is a missed window). */
  releaseAt?: number;
  /** For would-miss: what is posted when the release passed with the trader still away. */
  missed?: string;
}

/** The desk's alerts that only the node speaking for the desk opens and closes. */
const DESK_DURABILITY = 'durability_unverified:desk';
const DESK_KEYS = new Set([DESK_DURABILITY, 'store_down:desk']);

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16) + 'Z';

function storeConditions(
  events: EventLog,
  node: string,
  newFailures: number,
  /** On Redis: this node speaks for the desk (the first live node by name). */
  speaksForDesk: boolean,
  outageSinceLastCheck: boolean,
): Condition[] {
  const out: Condition[] = [];
  const health = events.health();
  if (health.storeLost)
    // One loss of the shared store: posted once for the desk (the shared ledger), not per node.
    out.push({
      key: `store_lost:${health.storeLost.at}`,
      kind: 'store_lost',
      text: `:rotating_light: The desk's store lost its data (found by relay ${node}): ${health.storeLost.reason}. Traders it no longer knows get "store lost", not "revoked".`,
      recovery: ':white_check_mark: The store loss was accepted (`relay store accept-loss`).',
    });
  else if (!health.ok && events.backend === 'redis') {
    // One Redis for every node: one post for the desk (the ledger is in Redis, so the first
    // live node by name posts), not one per node. A node cut off alone shows as silent.
    if (speaksForDesk)
      out.push({
        key: 'store_down:desk',
        kind: 'store_down',
        text: `:rotating_light: The desk's Redis store is down, seen by relay ${node} (${health.reason ?? 'no reason'}); webhooks are refused on every node and retried by the service.`,
        recovery: `:white_check_mark: The desk's Redis store is back (relay ${node}).`,
      });
  } else if (!health.ok)
    out.push({
      key: `store_down:${node}`,
      kind: 'store_down',
      text: `:rotating_light: Relay ${node}: the store is down (${health.reason ?? 'no reason'}); webhooks are refused and retried by the service.`,
      recovery: `:white_check_mark: Relay ${node}: the store is back.`,
    });
  if (health.durabilityUnverified && speaksForDesk)
    // One Redis for the desk: one post (the first live node by name), not one per node.
    out.push({
      key: 'durability_unverified:desk',
      kind: 'durability_unverified',
      text: `:warning: The desk's Redis: ${health.durabilityUnverified} (seen by relay ${node}). Webhooks are still taken.`,
      recovery: `:white_check_mark: The desk's Redis durability is as stated again (relay ${node}).`,
    });
  // While the store is down, or when it was down since the last check, its alert says
  // webhooks are refused (posted once for the desk): one post, not two (and no "stored
  // again" while they are not).
  if (newFailures > 0 && health.ok && !outageSinceLastCheck)
    out.push({
      key: `ingest_failing:${node}`,
      kind: 'ingest_failing',
      text: `:rotating_light: Relay ${node}: webhooks are failing to be stored (${newFailures} since the last check).`,
      recovery: `:white_check_mark: Relay ${node}: webhooks are stored again.`,
    });
  return out;
}

/**
 * An alert the shared ledger holds open from before this node started (a node that opened
 * it restarted, or is gone), taken back so that its end is posted: the desk's durability
 * warning (restarting the nodes is its fix) and a silent node (it reports again). Other
 * kinds are this node's own or end by themselves (would-miss: the release passes).
 */
export function adoptedCondition(key: string, node: string): Condition | null {
  if (key === 'durability_unverified:desk')
    return {
      key,
      kind: 'durability_unverified',
      text: ":warning: The desk's Redis durability may not hold (open since before this node started).",
      recovery: `:white_check_mark: The desk's Redis durability is as stated again (relay ${node}).`,
    };
  const silent = /^node_silent:(.+):\d+$/.exec(key);
  if (silent)
    return {
      key,
      kind: 'node_silent',
      text: `:rotating_light: Relay node ${silent[1] as string} stopped reporting (open since before this node started).`,
      recovery: `:white_check_mark: Relay node ${silent[1] as string} reports again.`,
    };
  return null;
}

function wouldMissConditions(snap: AdminSnapshot, now: number, leadMinutes: number): Condition[] {
  const out: Condition[] = [];
  for (const r of snap.releases) {
    if (r.at - now > leadMinutes * 60_000 || r.at <= now) continue;
    for (const m of r.wouldMiss) {
      const what = `${r.name} (${r.countryCode}) at ${hhmm(r.at)}`;
      out.push({
        key: `would_miss:${r.id}:${m.user}`,
        kind: 'would_miss',
        releaseAt: r.at,
        // Whole minutes rounded up: 20 s before is "in 1 min", never "in 0 min".
        text: `:warning: ${m.user} would miss ${what}, in ${Math.max(1, Math.ceil((r.at - now) / 60_000))} min: ${m.reason}.`,
        missed: `:x: ${m.user} missed ${what}: ${m.reason} when it printed.`,
        recovery: `:white_check_mark: ${m.user} is connected and current again for ${what}.`,
      });
    }
  }
  return out;
}

/**
 * The desk's durability warning as another live node reports it (its settings watch is its
 * own: a node restarted since the `CONFIG SET` no longer sees it, one not restarted does).
 */
function reportedUnverified(snap: AdminSnapshot, node: string): Condition[] {
  const other = snap.nodes.find((n) => !n.stale && n.durability?.startsWith('unverified:'));
  if (!other) return [];
  return [
    {
      key: DESK_DURABILITY,
      kind: 'durability_unverified',
      text: `:warning: The desk's Redis: ${other.durability as string} (seen by relay ${other.node}). Webhooks are still taken.`,
      recovery: `:white_check_mark: The desk's Redis durability is as stated again (relay ${node}).`,
    },
  ];
}

/** Nodes of the desk that stopped reporting (died, or cut off): posted once for the desk. */
function silentNodeConditions(snap: AdminSnapshot, now: number): Condition[] {
  return snap.nodes
    .filter((n) => n.stale)
    .map((n) => ({
      key: `node_silent:${n.node}:${n.reportedAt}`,
      kind: 'node_silent' as const,
      // Why, as the node itself says (silent-node.ts): cut off from the store, or down.
      text: `:rotating_light: Relay node ${n.node} has not reported for ${Math.round((now - n.reportedAt) / 1000)} s (${n.silentReason ?? 'down, or cut off from the store'}): its traders' desktops move to another node if they list one.`,
      recovery: `:white_check_mark: Relay node ${n.node} reports again.`,
    }));
}

export function alertConditions(opts: {
  events: EventLog;
  snapshot: () => Promise<AdminSnapshot>;
  leadMinutes: number;
  node: () => string;
  now: () => number;
  logger?: Logger;
}) {
  let failuresBefore = opts.events.storeFailures;
  let outagesBefore = opts.events.outages ?? 0;
  /** The store refused webhooks at the last check: failures until it took them are its. */
  let downBefore = false;
  /**
   * The desk's live nodes at the last snapshot read (kept while Redis is away); null until
   * one was read: a node just started does not yet know whether it speaks for the desk.
   */
  let liveNodes: string[] | null = null;
  /** The conditions now; `seen`: last check's, kept when presence cannot be read. */
  return async (seen: Iterable<Condition>): Promise<Condition[]> => {
    const failures = opts.events.storeFailures;
    const node = opts.node();
    const speaks = () => [...(liveNodes ?? []), node].sort()[0] === node;
    const speaksForDesk = speaks();
    const outages = opts.events.outages ?? 0;
    const out = storeConditions(
      opts.events,
      node,
      failures - failuresBefore,
      speaksForDesk,
      outages !== outagesBefore || downBefore,
    );
    failuresBefore = failures;
    outagesBefore = outages;
    downBefore = !opts.events.health().ok;
    const snap = await opts.snapshot().catch((err: unknown) => {
      opts.logger?.warn({ err }, 'desk alerts: could not read presence');
      return null;
    });
    if (snap) liveNodes = snap.nodes.filter((n) => !n.stale).map((n) => n.node);
    // The desk's own alerts are the speaking node's to close: another node (one that adopted
    // them at start, say) keeps them as they were, so no recovery is posted while they hold.
    const kept = [...seen].filter((c) => DESK_KEYS.has(c.key) && !out.some((o) => o.key === c.key));
    // A node that has not read the desk's nodes yet does not know whether it speaks for it.
    const speaksNow = liveNodes !== null && speaks();
    let desk: Condition[] = kept;
    if (speaksNow && snap)
      desk = out.some((c) => c.key === DESK_DURABILITY) ? [] : reportedUnverified(snap, node);
    // Presence unreadable: the other nodes' durability is unknown, not "as stated".
    else if (speaksNow) desk = kept.filter((c) => c.key === DESK_DURABILITY);
    if (!snap)
      return [
        ...out,
        ...desk,
        ...[...seen].filter((c) => c.kind === 'would_miss' || c.kind === 'node_silent'),
      ];
    const silent = silentNodeConditions(snap, opts.now());
    if (snap.releasesError !== null)
      return [...out, ...desk, ...silent, ...[...seen].filter((c) => c.kind === 'would_miss')];
    return [...out, ...desk, ...silent, ...wouldMissConditions(snap, opts.now(), opts.leadMinutes)];
  };
}
