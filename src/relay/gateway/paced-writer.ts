/**
 * A trader's gateway answers written at a bounded pace: a bucket of bytes per trader (per
 * node), `BURST_BYTES` at once, then `BYTES_PER_SECOND`. An app's reads (a hundred answers
 * of ~0.1 MB when it starts) never wait; one trader re-reading a 6.9 MB window 300 times
 * (the read bucket's burst) no longer makes the relay push 2 GB in two seconds while the
 * desk's webhooks wait for the CPU (issue #44). Bodies are written a piece at a time,
 * each after the socket drained: slices of the kept bytes, never copies.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export const BYTES_PER_SECOND = 32 * 1024 * 1024;
export const BURST_BYTES = 16 * 1024 * 1024;
/** The most written before the pace is checked again. */
const PIECE_BYTES = 256 * 1024;

export interface PacedWriterStats {
  /** Pauses a trader's answers waited for their byte budget. */
  paused: number;
}

export function pacedWriter(
  now: () => number = () => performance.now(),
  wait: (ms: number) => Promise<unknown> = sleep,
) {
  const budgets = new Map<string, { bytes: number; at: number }>();
  const stats: PacedWriterStats = { paused: 0 };

  /** Takes `n` bytes of `user`'s budget: the ms until it is paid for (0: now). */
  function delayFor(user: string, n: number): number {
    const t = now();
    const b = budgets.get(user) ?? { bytes: BURST_BYTES, at: t };
    b.bytes = Math.min(BURST_BYTES, b.bytes + (Math.max(0, t - b.at) * BYTES_PER_SECOND) / 1000);
    b.at = t;
    b.bytes -= n;
    budgets.set(user, b);
    return b.bytes >= 0 ? 0 : (-b.bytes * 1000) / BYTES_PER_SECOND;
  }

  const drained = (res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });

  /** Writes `chunks` as `user`'s answer body and ends it (or stops when the client left). */
  async function write(user: string, res: ServerResponse, chunks: Buffer[]): Promise<void> {
    for (const chunk of chunks)
      for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
        const piece = chunk.subarray(at, at + PIECE_BYTES);
        const ms = delayFor(user, piece.length);
        if (ms > 0) {
          stats.paused++;
          await wait(ms);
        }
        if (res.destroyed) return;
        if (!res.write(piece)) await drained(res);
      }
    res.end();
  }

  return { write, stats };
}
