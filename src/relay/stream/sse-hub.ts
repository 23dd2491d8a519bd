/**
 * The SSE side of the relay: each stored webhook goes out as
 *   `: received <ms>` / `id: <seq>` / `event: notification` / `data: <raw JSON>`
 * (the comment carries the receive time for lag; EventSource clients ignore it).
 * A resuming client is replayed from the log in pages, then switched to live in the same
 * turn as its last page read, so nothing is missed or sent twice. Replay pages are bounded
 * by count and bytes and written with back-pressure (the next page waits for 'drain'), so a
 * replay never trips the slow-consumer cap. The cap is for live fan-out only: a client whose
 * unread backlog is already past it when the next round comes is cut (it resumes later with
 * Last-Event-ID); one large round to a client that keeps reading is never a reason.
 * A replaying client holds at most one small page and one chunk while it waits for
 * 'drain', and is cut when it has not read for REPLAY_STALL_MS: a stream that never
 * reads costs the relay a bounded amount of memory, and not for ever.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { compareIds, type EventLog, type StoredEvent } from '../log/event-log.js';
import { SSE_HEADERS } from '../../node/http/server/sse.js';
import { cutStalled, drainOrClose, roundBytes, type RoundBytes } from './sse-writes.js';
import {
  heartbeatFrame,
  pack,
  positionFrame,
  sseFrame,
  storeFrame,
  unavailableFrame,
} from './sse-frames.js';

const PAGE = 500;
/** Bodies per /events/page answer. */
export const PAGE_BYTES = 1024 * 1024;
/**
 * Bodies per replay page: what a replaying client holds while its socket is full. Small,
 * so 700 streams that never read stay within a few hundred MB.
 */
const REPLAY_PAGE_BYTES = 128 * 1024;
/** A replaying client whose socket has not drained for this long has stopped reading. */
const REPLAY_STALL_MS = 30_000;
/** Upper bound of the fan-out pacing gap (see SseHub.enqueue). */
const MAX_PACING_MS = 50;
/**
 * The pacing gap as a share of the previous round's duration. The round's time now
 * includes its socket writes (they happen in the round, not on a later tick), so a full
 * gap would halve the rounds and double each event's wait: a quarter keeps rounds as
 * frequent as the commits while ingest still gets a turn between them.
 */
const PACING_FACTOR = 0.25;

interface Client {
  res: ServerResponse;
  /** Highest id written to this client. */
  cursor: string;
  /** False while replaying from the log: live appends are left for the replay to read. */
  live: boolean;
  /** Unsent bytes right after the last live write: a backlog that has not shrunk since is unread. */
  backlogAfterWrite: number;
  /** When the backlog was last seen shrinking (or within the cap). */
  progressAt: number;
}

/**
 * A live client whose backlog stays past the cap without shrinking for this long has
 * stopped reading. Measured in time, not in rounds: rounds can come milliseconds apart
 * under a burst, and a client that reads (its process busy for a moment) must not be cut
 * for missing one.
 */
const STALL_MS = 2_000;

export class SseHub {
  private readonly clients = new Set<Client>();
  streamed = 0;
  slowDisconnects = 0;
  /** Streams ended because this node lost its store (their desktops move to another node). */
  cutOffDisconnects = 0;
  /** Fan-out rounds: each writes once to every live client (commit batches coalesced). */
  fanoutRounds = 0;

  constructor(
    private readonly log: EventLog,
    private readonly opts: { heartbeatMs: number; maxQueuedBytes: number; logger?: Logger },
  ) {
    this.offAppend = log.onAppend((batch) => this.enqueue(batch));
    this.offCutOff =
      log.onCutOff?.((reason) => {
        if (reason !== null) this.letGo(reason);
      }) ?? null;
    this.offRefusing =
      log.onRefusing?.((reason) => {
        const frame = storeFrame(reason);
        for (const c of this.clients) this.send(c, frame);
      }) ?? null;
  }

  /** Ends the subscription to the log's appends (closeAll: nothing is fanned out after). */
  private readonly offAppend: () => void;
  private readonly offCutOff: (() => void) | null;
  private readonly offRefusing: (() => void) | null;

  /**
   * This node cannot reach its store: every stream gets the reason and is ended, so its
   * desktop moves to the next relay URL at once instead of waiting on a node that gets
   * nothing new (the route refuses new streams meanwhile: routes/stream.ts).
   */
  private letGo(reason: string): void {
    this.opts.logger?.warn({ streams: this.clients.size, reason }, 'store cut off: streams ended');
    const frame = unavailableFrame(reason);
    for (const c of this.clients) {
      this.clients.delete(c);
      if (c.res.destroyed) continue;
      this.cutOffDisconnects++;
      c.res.end(frame);
    }
  }

  /** Committed events not yet written to the live clients. */
  private queued: StoredEvent[] = [];
  private pending: 'microtask' | NodeJS.Timeout | null = null;
  private lastBroadcastEnd = 0;
  private lastBroadcastMs = 0;
  /** The last id of the previous fan-out round. */
  private lastRoundId = '';

  /**
   * Fan-out pacing. Right after a commit the events are queued; they go out after the
   * commit's acknowledgements (a microtask), unless the previous fan-out ended less than
   * a quarter of its own duration ago: then they wait out that gap, and every batch
   * committed meanwhile joins the same write, so ingest always gets a turn between
   * rounds and each client gets one write per gap instead of one per commit. When idle
   * there is no wait.
   */
  private enqueue(batch: StoredEvent[]): void {
    if (this.clients.size === 0 || batch.length === 0) return;
    for (const e of batch) this.queued.push(e);
    if (this.pending !== null) return;
    const wait = Math.min(
      MAX_PACING_MS,
      this.lastBroadcastEnd + PACING_FACTOR * this.lastBroadcastMs - performance.now(),
    );
    if (wait < 1) {
      this.pending = 'microtask';
      queueMicrotask(() => this.flushQueued());
    } else this.pending = setTimeout(() => this.flushQueued(), wait);
  }

  private flushQueued(): void {
    this.pending = null;
    const events = this.queued;
    this.queued = [];
    const start = performance.now();
    this.fanoutRounds++;
    this.broadcast(events);
    this.lastBroadcastEnd = performance.now();
    this.lastBroadcastMs = this.lastBroadcastEnd - start;
  }

  get size(): number {
    return this.clients.size;
  }

  /** Serve one stream; `after` null = live only. */
  async serve(res: ServerResponse, after: string | null): Promise<void> {
    res.writeHead(200, SSE_HEADERS);
    res.write('retry: 2000\n\n');
    // Opened while this relay refuses webhooks: said first (storeFrame).
    const h = this.log.health();
    if (!h.ok && !h.cutOff && this.log.onRefusing) res.write(storeFrame(h.reason ?? 'unknown'));
    const client: Client = {
      res,
      cursor: after ?? this.log.lastId(),
      live: after === null,
      backlogAfterWrite: 0,
      progressAt: performance.now(),
    };
    this.clients.add(client);
    const hb = setInterval(
      () => this.send(client, heartbeatFrame(this.log.lastId(), this.log.storeSilentMs?.() ?? 0)),
      this.opts.heartbeatMs,
    );
    hb.unref();
    res.on('close', () => {
      clearInterval(hb);
      this.clients.delete(client);
    });
    if (after === null) {
      // Where "live" starts, told in the same turn the cursor is taken: a client with no id
      // yet resumes from here if this stream drops before its first event (positionFrame).
      res.write(positionFrame(client.cursor));
      return;
    }
    const point = await this.log.resume(after);
    if (point.gap) {
      const { oldestId, lastId } = point;
      this.send(client, `event: reset\ndata: ${JSON.stringify({ oldestId, lastId })}\n\n`);
    }
    client.cursor = point.from;
    // Until a page comes back empty and nothing reached this node's live feed during the
    // read: that check and the switch to live happen in one turn, so the next fan-out
    // round carries this client on exactly from its cursor.
    for (;;) {
      const known = this.log.lastId();
      const page = await this.log.after(client.cursor, PAGE, REPLAY_PAGE_BYTES);
      if (ended(res)) return;
      if (page.length === 0) {
        if (this.log.lastId() === known) break;
        continue;
      }
      if (!(await this.deliverPage(client, page))) return;
    }
    client.live = true;
  }

  closeAll(): void {
    this.offAppend();
    this.offCutOff?.();
    this.offRefusing?.();
    if (this.pending !== null && this.pending !== 'microtask') clearTimeout(this.pending);
    this.pending = null;
    this.queued = [];
    for (const c of this.clients) c.res.end();
  }

  /**
   * A fan-out round goes out as one write per client: each frame is rendered once per
   * event (not per client), and the round once as bytes already framed as one HTTP chunk,
   * shared by every client that is behind its first id. That buffer goes to the socket
   * as is — one syscall per client per round, no per-client encoding or chunk header.
   */
  private broadcast(batch: StoredEvent[]): void {
    const first = batch[0];
    const last = batch.at(-1);
    if (first === undefined || last === undefined || this.clients.size === 0) return;
    // Live clients are almost all exactly at the previous round's end: no id parsing for them.
    const previous = this.lastRoundId;
    this.lastRoundId = last.id;
    let frames: string[] | undefined;
    let all: RoundBytes | undefined;
    for (const c of this.clients) {
      if (!c.live) continue;
      let bytes: RoundBytes;
      let n = batch.length;
      if (c.cursor === previous || compareIds(c.cursor, first.id) < 0) {
        frames ??= batch.map(sseFrame);
        bytes = all ??= roundBytes(frames);
      } else {
        if (compareIds(c.cursor, last.id) >= 0) continue;
        // Part of the batch was already read by this client's replay: only the rest.
        frames ??= batch.map(sseFrame);
        const from = batch.findIndex((e) => compareIds(e.id, c.cursor) > 0);
        bytes = roundBytes(frames.slice(from));
        n -= from;
      }
      if (!this.writeRound(c, bytes)) continue;
      c.cursor = last.id;
      this.streamed += n;
    }
  }

  /**
   * A replayed page, chunk by chunk (each rendered only when the previous one drained),
   * so a client that stops reading holds one page and one chunk until it is cut.
   */
  private async deliverPage(c: Client, page: StoredEvent[]): Promise<boolean> {
    const last = page.at(-1);
    if (last === undefined) return true;
    for (const chunk of pack(page)) {
      if (ended(c.res)) return false;
      if (!c.res.write(chunk) && !(await drainOrClose(c.res, REPLAY_STALL_MS))) {
        this.opts.logger?.warn({ backlog: c.res.writableLength }, 'stalled replay disconnected');
        this.slowDisconnects++;
        cutStalled(c.res);
        return false;
      }
    }
    if (ended(c.res)) return false;
    c.cursor = last.id;
    this.streamed += page.length;
    return true;
  }

  /** One live round to a client: cut it first if it left the previous rounds unread. */
  private writeRound(c: Client, bytes: RoundBytes): boolean {
    if (!this.keepsUp(c)) return false;
    const socket = c.res.socket;
    // Straight to the socket once the headers are out (they went with the `retry` line):
    // the same bytes res.write would send, framed once for everyone.
    if (socket && c.res.headersSent)
      socket.write(c.res.chunkedEncoding ? bytes.chunked : bytes.raw);
    else c.res.write(bytes.raw);
    c.backlogAfterWrite = c.res.writableLength;
    return true;
  }

  /** Heartbeats and reset notices: small, and subject to the same slow-consumer check. */
  private send(c: Client, text: string): boolean {
    if (!this.keepsUp(c)) return false;
    c.res.write(text);
    return true;
  }

  /**
   * A client whose unsent backlog is past the cap and has not shrunk for STALL_MS has
   * stopped reading (or reads far too slowly, past 4× the cap): cut it; it resumes from
   * its last id. A replaying client is never cut here: its pages wait for 'drain'.
   */
  private keepsUp(c: Client): boolean {
    if (ended(c.res)) return false;
    const backlog = c.res.writableLength;
    const cap = this.opts.maxQueuedBytes;
    const now = performance.now();
    if (backlog < c.backlogAfterWrite || backlog <= cap) c.progressAt = now;
    const stalled = now - c.progressAt >= STALL_MS || backlog > 4 * cap;
    if (!c.live || backlog <= cap || !stalled) return true;
    this.opts.logger?.warn({ backlog: c.res.writableLength }, 'slow consumer disconnected');
    this.slowDisconnects++;
    cutStalled(c.res);
    this.clients.delete(c);
    return false;
  }
}

/** Closed by the client, or ended here (cut off from the store): nothing more is written. */
function ended(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}
