/**
 * A read refused by the trader's bucket is held until their next token is due, then tried
 * again, instead of refused at once: a reader in a loop then costs the relay a read or two
 * a second, not thousands of refusals (issue #44: ~4,600 a second from one trader's four
 * readers kept webhook ingest waiting). The places are bounded, per trader and per node;
 * a read past them is refused at once and its connection closed, so a flooder must open a
 * new connection for every refusal.
 *
 * What is held depends on the trader's own bucket only — never on what is cached — so a
 * held read tells nothing about what colleagues opened.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** Refused reads held at once for one trader (four readers in a loop, with room to spare). */
export const HELD_PER_TRADER = 8;
/** Refused reads held at once on this node, all traders together. */
const HELD_PER_NODE = 256;
/** The longest hold (a bucket refilled at 2 a second has a token due within 500 ms). */
const MAX_HOLD_MS = 1_000;

export interface HeldRefusalStats {
  /** Reads held right now. */
  holding: number;
  /** Reads held, in all. */
  held: number;
  /** Reads refused at once (no place free), their connections closed. */
  refusedAtOnce: number;
}

/** `'held'`: waited, try again; `'full'`: refuse at once; `'gone'`: the client left. */
type HoldOutcome = 'held' | 'full' | 'gone';

export function heldRefusals(wait: (ms: number) => Promise<unknown> = sleep) {
  const perTrader = new Map<string, number>();
  const stats: HeldRefusalStats = { holding: 0, held: 0, refusedAtOnce: 0 };

  async function hold(user: string, waitMs: number, res: ServerResponse): Promise<HoldOutcome> {
    const mine = perTrader.get(user) ?? 0;
    if (mine >= HELD_PER_TRADER || stats.holding >= HELD_PER_NODE) {
      stats.refusedAtOnce++;
      return 'full';
    }
    perTrader.set(user, mine + 1);
    stats.holding++;
    stats.held++;
    let onClose = () => undefined as void;
    const left = new Promise<'gone'>((resolve) => {
      onClose = () => resolve('gone');
      res.once('close', onClose);
    });
    try {
      const waited = wait(Math.min(MAX_HOLD_MS, waitMs)).then(() => 'held' as const);
      return await Promise.race([waited, left]);
    } finally {
      res.off('close', onClose);
      stats.holding--;
      const n = (perTrader.get(user) ?? 1) - 1;
      if (n > 0) perTrader.set(user, n);
      else perTrader.delete(user);
    }
  }

  return { hold, stats };
}
