/**
 * The connection state, derived in one place from the facts the sync engine holds, so
 * the banner, the status bar, the tray and the status API can never disagree.
 * Precedence: offline (the service does not answer) beats reconnecting (the relay stream
 * is down) beats behind (the stream is open, its node is not keeping up) beats late (webhooks missing, the safety net carries the feed) beats live —
 * except that an API failing while its webhooks still arrive is `apiDown`, not offline:
 * prints still alert, so "showing cached data" would be untrue.
 */
import type { ConnectionInfo, ConnectionState, LiveTransport } from '../../shared/domain.js';
import type { HealthSnapshot } from './service-health.js';

export interface ConnectionFacts {
  transport: LiveTransport;
  health: HealthSnapshot;
  /** Relay transport: whether the stream is open, and since when it is down. */
  relay: {
    connected: boolean;
    downSince: number | null;
    error: string | null;
    /** The open stream's node is behind (relay-behind.ts), and why. */
    behind?: string | null;
    /** The relay says it refuses webhooks (a full disk), and why. */
    refusing?: string | null;
  } | null;
  /** Webhooks transports: since when deliveries are missing (the safety net found changes first). */
  webhooksLateSince: number | null;
  /** When the engine started (the `connecting` state's since). */
  startedAt: number;
  /** When a webhook (direct or via the relay) last arrived, or null. */
  lastDeliveryAt: number | null;
  now: number;
}

/** A relay stream down for less than this, while the API fails, is a retry, not a loss. */
const RELAY_BLIP_MS = 10_000;

/** Webhooks count as still arriving for this long after the last one. */
export const DELIVERY_FRESH_MS = 5 * 60_000;

/**
 * The API fails, but the live transport is up and webhooks arrived since it began failing
 * (one from before says nothing: a service that is gone sends none either).
 */
function webhooksCarry(f: ConnectionFacts): boolean {
  if (f.transport === 'polling' || f.lastDeliveryAt === null) return false;
  if (f.lastDeliveryAt < (f.health.failingSince ?? 0)) return false;
  if (f.webhooksLateSince !== null) return false; // they are missing, not carrying
  // A notification that needs a fetch fails while the API is down, and the stream is
  // re-opened to retry it: a blip that short does not mean webhooks stopped.
  if (f.relay && !f.relay.connected && f.now - (f.relay.downSince ?? 0) > RELAY_BLIP_MS)
    return false;
  return f.now - f.lastDeliveryAt <= DELIVERY_FRESH_MS;
}

export function deriveConnection(f: ConnectionFacts): ConnectionInfo {
  const { transport, health } = f;
  if (health.failingSince !== null && webhooksCarry(f)) {
    return info(
      'apiDown',
      transport,
      `${health.error ?? 'The service does not answer'}; webhooks still arrive, so prints still alert`,
      health.failingSince,
    );
  }
  if (health.failingSince !== null) {
    return info(
      'offline',
      transport,
      health.error ?? 'The service does not answer',
      health.failingSince,
    );
  }
  if (f.relay && !f.relay.connected) {
    const since = f.relay.downSince ?? f.startedAt;
    const reason = f.relay.error
      ? `The relay stream is down (${f.relay.error}); releases are polled meanwhile`
      : 'Connecting to the relay; releases are polled meanwhile';
    return info(
      health.lastOkAt === null && !f.relay.error ? 'connecting' : 'reconnecting',
      transport,
      reason,
      since,
    );
  }
  if (health.lastOkAt === null) return info('connecting', transport, null, f.startedAt);
  const behind = f.relay?.refusing
    ? `it cannot store webhooks: ${f.relay.refusing}`
    : f.relay?.behind;
  if (behind) {
    return info(
      'behind',
      transport,
      `The relay node is behind (${behind}); the safety net polls every release you are alerted to`,
      f.now,
    );
  }
  if (f.webhooksLateSince !== null && transport !== 'polling') {
    return info(
      'late',
      transport,
      'Webhooks are not arriving; the safety net polls every release you are alerted to',
      f.webhooksLateSince,
    );
  }
  return info('live', transport, null, f.startedAt);
}

function info(
  state: ConnectionState,
  transport: LiveTransport,
  reason: string | null,
  since: number,
): ConnectionInfo {
  return { state, transport, reason, since };
}

/**
 * Keeps `since` stable while the state stays the same (facts can move under a state); a
 * return to `live` dates from the moment it was seen.
 */
export class ConnectionTracker {
  private current: ConnectionInfo | null = null;

  update(next: ConnectionInfo, now: number): ConnectionInfo {
    const prev = this.current;
    if (prev && prev.state === next.state && prev.transport === next.transport) {
      this.current = { ...next, since: prev.since };
    } else {
      this.current = prev && next.state === 'live' ? { ...next, since: now } : next;
    }
    return this.current;
  }
}
