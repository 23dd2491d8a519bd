/**
 * The SSE side of the relay: each stored webhook goes out as
 *   `: received <ms>` / `id: <seq>` / `event: notification` / `data: <raw JSON>`
 * (the comment carries the receive time for lag; EventSource clients ignore it).
 * A resuming client is replayed from the log in pages, then switched to live in the same
 * turn as its last page read, so nothing is missed or sent twice. A client that cannot
 * keep up is cut once its backlog passes the cap; it resumes later with Last-Event-ID.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { EventLog, StoredEvent } from './event-log.js';

const PAGE = 500;

interface Client {
  res: ServerResponse;
  /** Highest id written to this client. */
  cursor: number;
  /** False while replaying from the log: live appends are left for the replay to read. */
  live: boolean;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

export function sseFrame(e: StoredEvent): string {
  // JSON allows raw newlines only as whitespace, so turning CR/LF into spaces keeps it
  // equal in meaning while fitting SSE's one-line data field.
  const data = e.body.toString('utf8').replace(/\r\n|\r|\n/g, ' ');
  return `: received ${e.receivedAt}\nid: ${e.id}\nevent: notification\ndata: ${data}\n\n`;
}

export class SseHub {
  private readonly clients = new Set<Client>();
  streamed = 0;
  slowDisconnects = 0;

  constructor(
    private readonly log: EventLog,
    private readonly opts: { heartbeatMs: number; maxQueuedBytes: number; logger?: Logger },
  ) {
    log.onAppend((batch) => this.broadcast(batch));
  }

  get size(): number {
    return this.clients.size;
  }

  /** Serve one stream; `after` null = live only. */
  async serve(res: ServerResponse, after: number | null): Promise<void> {
    res.writeHead(200, SSE_HEADERS);
    res.write('retry: 2000\n\n');
    const client: Client = { res, cursor: after ?? this.log.lastId(), live: after === null };
    this.clients.add(client);
    const hb = setInterval(() => this.send(client, ': hb\n\n'), this.opts.heartbeatMs);
    hb.unref();
    res.on('close', () => {
      clearInterval(hb);
      this.clients.delete(client);
    });
    if (after === null) return;
    if (this.log.gapAfter(after)) {
      const info = { oldestId: this.log.oldestId(), lastId: this.log.lastId() };
      this.send(client, `event: reset\ndata: ${JSON.stringify(info)}\n\n`);
      // Everything available follows; ids before the oldest are gone (or from another log).
      client.cursor = Math.min(after, Math.max(0, (info.oldestId ?? info.lastId + 1) - 1));
    }
    for (let guard = 0; guard < 1_000_000; guard++) {
      const page = this.log.after(client.cursor, PAGE);
      for (const e of page) if (!this.deliver(client, e)) return;
      if (page.length < PAGE) break;
      if (res.writableLength > 0) await drainOrClose(res);
      if (res.destroyed) return;
    }
    client.live = true;
  }

  closeAll(): void {
    for (const c of this.clients) c.res.end();
  }

  private broadcast(batch: StoredEvent[]): void {
    for (const c of this.clients) {
      if (!c.live) continue;
      for (const e of batch) {
        if (e.id <= c.cursor) continue;
        if (!this.deliver(c, e)) break;
      }
    }
  }

  private deliver(c: Client, e: StoredEvent): boolean {
    if (!this.send(c, sseFrame(e))) return false;
    c.cursor = e.id;
    this.streamed++;
    return true;
  }

  /** Write, and cut a consumer that cannot keep up (it resumes from its last id). */
  private send(c: Client, text: string): boolean {
    if (c.res.destroyed) return false;
    const ok = c.res.write(text);
    if (!ok && c.res.writableLength > this.opts.maxQueuedBytes) {
      this.opts.logger?.warn({ backlog: c.res.writableLength }, 'slow consumer disconnected');
      this.slowDisconnects++;
      c.res.destroy();
      this.clients.delete(c);
      return false;
    }
    return true;
  }
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
