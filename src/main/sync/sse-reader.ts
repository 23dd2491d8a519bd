/**
 * Turns an SSE byte stream into batches of messages, one batch per chunk read, so a
 * burst that arrived together can be applied together. The relay puts a
 * `: received <ms>` comment before each event; it is attached as `receivedAt`.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseMessage extends EventSourceMessage {
  /** When the relay stored it (epoch ms), if it said. */
  receivedAt: number | null;
}

export async function* readSse(
  body: AsyncIterable<Buffer | Uint8Array | string>,
  onActivity: () => void,
): AsyncGenerator<SseMessage[]> {
  const decoder = new TextDecoder();
  let batch: SseMessage[] = [];
  let receivedAt: number | null = null;
  const parser = createParser({
    onEvent: (msg) => {
      batch.push({ ...msg, receivedAt });
      receivedAt = null;
    },
    onComment: (comment) => {
      const m = /^\s*received (\d{1,15})\s*$/.exec(comment);
      if (m) receivedAt = Number(m[1]);
    },
  });
  for await (const chunk of body) {
    onActivity();
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (batch.length > 0) {
      const out = batch;
      batch = [];
      yield out;
    }
  }
}
