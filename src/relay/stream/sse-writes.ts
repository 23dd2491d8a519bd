/** Socket writes of the SSE hub: a round's bytes in one chunk, and waiting for 'drain'. */
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** A round's frames as one buffer, bare (HTTP/1.0 reader) and framed as one HTTP/1.1 chunk. */
export interface RoundBytes {
  raw: Buffer;
  chunked: Buffer;
}

export function roundBytes(frames: string[]): RoundBytes {
  const text = frames.join('');
  const length = Buffer.byteLength(text, 'utf8');
  const head = `${length.toString(16)}\r\n`;
  const chunked = Buffer.allocUnsafe(head.length + length + 2);
  chunked.write(head, 0, 'latin1');
  chunked.write(text, head.length, 'utf8');
  chunked.write('\r\n', head.length + length, 'latin1');
  return { raw: chunked.subarray(head.length, head.length + length), chunked };
}

/** True once the response drained (or closed); false when it stayed full for `timeoutMs`. */
export function drainOrClose(res: ServerResponse, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(false), timeoutMs);
    timer.unref();
    // Whichever fires first, both listeners go.
    function settle(drained: boolean): void {
      clearTimeout(timer);
      res.off('drain', onDrainOrClose);
      res.off('close', onDrainOrClose);
      resolve(drained);
    }
    function onDrainOrClose(): void {
      settle(true);
    }
    res.once('drain', onDrainOrClose);
    res.once('close', onDrainOrClose);
  });
}

/**
 * Cuts a connection whose reader stopped: with a reset, so the kernel drops the bytes it
 * still queues for it at once. A plain close leaves them queued behind the reader's zero
 * window (an orphaned socket, for minutes): 700 cut streams would keep their send buffers.
 */
export function cutStalled(target: ServerResponse | Socket): void {
  const socket = target instanceof Socket ? target : target.socket;
  try {
    if (socket instanceof Socket && !socket.destroyed) return void socket.resetAndDestroy();
  } catch {
    // not a TCP socket (a pipe): a plain close
  }
  target.destroy();
}
