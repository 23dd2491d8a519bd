/**
 * An EventSource as the HTML standard defines it (§9.2 "Server-sent events"), for Node 20
 * and 22 (none by default), with request headers (the relay wants a bearer token). It keeps
 * the rules that decide whether a client survives a relay node restart behind a proxy:
 * - a response that is not 200 with `text/event-stream` **fails the connection for good**
 *   (readyState CLOSED, no retry) — so a proxy answering 502 while a node restarts stops a
 *   standard client forever;
 * - a stream that ends or breaks is **re-established** after the reconnection time (the
 *   server's `retry:`), with `Last-Event-ID` set to the last `id:` seen.
 * Parsing is eventsource-parser's (the parser the `eventsource` npm package is built on).
 */
import { createParser } from 'eventsource-parser';
import { request, type Dispatcher } from 'undici';

export interface SseEvent {
  type: string;
  data: string;
  lastEventId: string;
}

export class StandardEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = StandardEventSource.CONNECTING;
  lastEventId = '';
  /** The reconnection time; the relay sends `retry: 2000`. */
  reconnectMs = 3000;
  readonly events: SseEvent[] = [];
  /** Why the connection failed for good (a status or content type), if it did. */
  failure: string | null = null;
  /** Connections opened (1 + re-establishments). */
  opened = 0;
  private abort = new AbortController();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly dispatcher: Dispatcher,
  ) {
    void this.connect();
  }

  private async connect(): Promise<void> {
    while (this.readyState !== StandardEventSource.CLOSED) {
      this.readyState = StandardEventSource.CONNECTING;
      try {
        const res = await request(this.url, {
          headers: {
            ...this.headers,
            accept: 'text/event-stream',
            'cache-control': 'no-store',
            ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}),
          },
          dispatcher: this.dispatcher,
          signal: this.abort.signal,
        });
        const type = String(res.headers['content-type'] ?? '');
        if (res.statusCode !== 200 || !type.startsWith('text/event-stream')) {
          await res.body.dump().catch(() => undefined);
          this.failure = `HTTP ${res.statusCode} ${type}`;
          this.readyState = StandardEventSource.CLOSED; // "fail the connection"
          return;
        }
        this.readyState = StandardEventSource.OPEN;
        this.opened++;
        const parser = createParser({
          onEvent: (m) => {
            if (m.id !== undefined) this.lastEventId = m.id;
            this.events.push({
              type: m.event ?? 'message',
              data: m.data,
              lastEventId: this.lastEventId,
            });
          },
          onRetry: (ms) => (this.reconnectMs = ms),
        });
        const decoder = new TextDecoder();
        for await (const chunk of res.body)
          parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      } catch {
        // a network error or a broken stream: re-establish, as below
      }
      if (this.abort.signal.aborted) return;
      // "Reestablish the connection": wait the reconnection time, then the same request.
      await new Promise((r) => setTimeout(r, this.reconnectMs));
    }
  }

  close(): void {
    this.readyState = StandardEventSource.CLOSED;
    this.abort.abort();
  }
}
