/**
 * The streams open on this node, by trader, so a replay reaches that trader's desktops
 * and nobody else's. A replayed event goes out as `event: replay` with the id inside its
 * data (never an `id:` line): an EventSource's own last id, and the app's cursor, stay
 * where they are, and the app applies it idempotently (relay-consumer.ts).
 */
import type { ServerResponse } from 'node:http';
import type { StoredEvent } from '../../log/event-log.js';

/** A stream with more unsent bytes than this is not keeping up: it is skipped, not fed. */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

export function replayFrame(e: StoredEvent): string {
  // The body is valid JSON (checked at ingest): spliced in as stored, newlines made spaces.
  const body = e.body.toString('utf8').replace(/\r\n|\r|\n/g, ' ');
  return `event: replay\ndata: {"id":"${e.id}","receivedAt":${e.receivedAt},"body":${body}}\n\n`;
}

export class TraderStreams {
  private readonly byUser = new Map<string, Set<ServerResponse>>();

  /** Tracks `res` as one of `user`'s streams until it closes. */
  add(user: string, res: ServerResponse): void {
    let set = this.byUser.get(user);
    if (!set) this.byUser.set(user, (set = new Set()));
    set.add(res);
    res.once('close', () => {
      set.delete(res);
      if (set.size === 0 && this.byUser.get(user) === set) this.byUser.delete(user);
    });
  }

  count(user: string): number {
    return this.byUser.get(user)?.size ?? 0;
  }

  /** Writes the events to each of the user's open streams; how many streams got them. */
  replay(user: string, events: StoredEvent[]): number {
    const streams = [...(this.byUser.get(user) ?? [])];
    if (streams.length === 0 || events.length === 0) return 0;
    const text = events.map(replayFrame).join('');
    let reached = 0;
    for (const res of streams) {
      if (res.destroyed || !res.headersSent) continue;
      if (res.writableLength + text.length > MAX_BACKLOG_BYTES) continue;
      res.write(text);
      reached++;
    }
    return reached;
  }
}
