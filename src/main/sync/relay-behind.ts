/**
 * Whether the relay node in use is behind, read from its heartbeats (the relay's
 * `heartbeatFrame`: its head and how long its store has left it unanswered). A node cut
 * off from its store ends its streams itself within seconds (`event: unavailable`); this
 * covers what a stream that stays open can still show: the node's store silent, or its
 * head past what reached this desktop, for RELAY_BEHIND_MS — then "Live — relay behind".
 */
import { z } from 'zod';
import { RELAY_EVENT_ID, compareEventIds } from '../../shared/relay-ids.js';

/**
 * Long enough that a burst being applied or one slow store answer is not "behind"; short
 * enough to show within a heartbeat or two (15 s apart) of a node that fell behind.
 */
export const RELAY_BEHIND_MS = 10_000;

const heartbeatData = z.looseObject({
  lastId: z.string().regex(RELAY_EVENT_ID).optional(),
  storeSilentMs: z.number().nonnegative().optional(),
});

export class RelayBehindWatch {
  /** Since when the node's head is past what reached this desktop. */
  private aheadSince: number | null = null;

  /** Reads one heartbeat's data; returns why the node is behind, or null. */
  heartbeat(data: string, received: string | null, now: number): string | null {
    let beat: z.infer<typeof heartbeatData>;
    try {
      beat = heartbeatData.parse(JSON.parse(data));
    } catch {
      return null; // an older relay's or a malformed heartbeat says nothing either way
    }
    const silentMs = beat.storeSilentMs ?? 0;
    const ahead =
      beat.lastId !== undefined && received !== null && compareEventIds(beat.lastId, received) > 0;
    if (!ahead) this.aheadSince = null;
    else this.aheadSince ??= now;
    if (silentMs >= RELAY_BEHIND_MS)
      return `its store has not answered it for ${Math.round(silentMs / 1000)} s`;
    if (this.aheadSince !== null && now - this.aheadSince >= RELAY_BEHIND_MS)
      return `it holds events that have not reached this app for ${Math.round((now - this.aheadSince) / 1000)} s`;
    return null;
  }

  /** A new stream starts with no opinion. */
  clear(): void {
    this.aheadSince = null;
  }
}
