/**
 * Refusing a request whose body is still arriving. A server that answers and closes while
 * the client is still sending leaves unread bytes in the socket, and the kernel answers
 * those with a reset: the client sees ECONNRESET/EPIPE instead of the 413 or 404. So the
 * rest of the body is read and dropped first, then the answer goes out on an orderly
 * connection. The bounds keep a refused body from costing more than a little bandwidth
 * and time: past them the answer is sent and the connection cut.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReplyError } from '../../node/http/server/reply-error.js';
import { sendReplyError } from '../http-util.js';

export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
export const DRAIN_LIMIT_MS = 10_000;

/** Calls `answer` once the body is gone; `cut` = the connection must close after it. */
export function afterDrain(req: IncomingMessage, answer: (cut: boolean) => void): void {
  if (req.complete) return answer(false);
  if (Number(req.headers['content-length'] ?? 0) > DRAIN_LIMIT_BYTES) return answer(true);
  let dropped = 0;
  let done = false;
  const timer = setTimeout(() => finish(true), DRAIN_LIMIT_MS);
  timer.unref();
  function finish(cut: boolean): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    answer(cut);
  }
  // Left attached after the answer: what still arrives is dropped uncounted.
  function onData(chunk: Buffer): void {
    if (done) return;
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT_BYTES) finish(true);
  }
  req.on('data', onData);
  req.once('end', () => finish(false));
  // A client that hangs up gets no answer (there is no one to read it).
  req.once('close', () => {
    done = true;
    clearTimeout(timer);
  });
  req.resume();
}

/** Answers `err` after the drain; a cut connection is closed once the answer is out. */
export function refuseAfterDrain(req: IncomingMessage, res: ServerResponse, err: ReplyError): void {
  afterDrain(req, (cut) => {
    if (res.writableEnded || res.destroyed) return;
    if (!cut) return sendReplyError(res, err);
    res.once('finish', () => req.destroy());
    sendReplyError(res, err, { connection: 'close' });
  });
}
