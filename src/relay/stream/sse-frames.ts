/**
 * The relay stream's frames, as the app's consumer reads them (relay-messages.ts): each
 * stored webhook as a notification (its receive time in a comment, for lag), the position
 * a stream without an id starts at, heartbeats with the node's head, the store's refusal,
 * the last frame of a stream let go; and events packed into write-sized chunks.
 */
import type { StoredEvent } from '../log/event-log.js';

export function sseFrame(e: StoredEvent): string {
  // JSON allows raw newlines only as whitespace, so turning CR/LF into spaces keeps it
  // equal in meaning while fitting SSE's one-line data field.
  const data = e.body.toString('utf8').replace(/\r\n|\r|\n/g, ' ');
  return `: received ${e.receivedAt}\nid: ${e.id}\nevent: notification\ndata: ${data}\n\n`;
}

/**
 * A stream opened without an id starts with its position: an event of its own type (the
 * app's consumer persists it as its first cursor), whose id sets a standard EventSource's
 * Last-Event-ID as well, so a drop before the first notification resumes without a gap.
 */
export function positionFrame(lastId: string): string {
  return `id: ${lastId}\nevent: position\ndata: ${JSON.stringify({ lastId })}\n\n`;
}

/**
 * A heartbeat carries this node's head (the last id it read from its store) and how long
 * its store has left it unanswered, so a desktop can tell "nothing new" from "this node
 * is behind" (live-feed.md, "Live — relay behind").
 */
export function heartbeatFrame(lastId: string, storeSilentMs: number): string {
  return `event: heartbeat\ndata: ${JSON.stringify({ lastId, storeSilentMs })}\n\n`;
}

/**
 * This relay refuses webhooks (why) or takes them again (null): a node with nowhere else to
 * send its desktops (SQLite) tells them, so none shows plain "Live (relay)" meanwhile.
 */
export function storeFrame(refusing: string | null): string {
  return `event: store\ndata: ${JSON.stringify({ refusing })}\n\n`;
}

/** The last frame of a stream this node lets go because it cannot reach its store. */
export function unavailableFrame(reason: string): string {
  return `event: unavailable\ndata: ${JSON.stringify({ reason })}\n\n`;
}

/** Write granularity: frames are joined into chunks of about this many bytes. */
const CHUNK_BYTES = 64 * 1024;

/** Events framed and joined into chunks of about CHUNK_BYTES, rendered one at a time. */
export function* pack(events: StoredEvent[]): Generator<Buffer> {
  let frames: string[] = [];
  let length = 0;
  for (const e of events) {
    const frame = sseFrame(e);
    frames.push(frame);
    length += frame.length;
    if (length >= CHUNK_BYTES) {
      yield Buffer.from(frames.join(''), 'utf8');
      frames = [];
      length = 0;
    }
  }
  if (frames.length > 0) yield Buffer.from(frames.join(''), 'utf8');
}
