/**
 * A trader's read through the bucket: admitted, or — refused — held until their next token
 * is due and tried once more (held-refusals.ts); 429 with Retry-After when refused again
 * or when no place to hold it is free (then with `Connection: close`). Whether the answer
 * is kept or not, an empty bucket gives the same wait and the same 429.
 */
import type { ServerResponse } from 'node:http';
import { RelayErrors } from '../errors.js';
import { heldRefusals } from './held-refusals.js';
import type { CachedRead, ReadCache } from './read-cache.js';
import type { ReadRoute } from './read-routes.js';

/** Takes `cost` of `user`'s reads: 0 when allowed, else the ms until a whole token. */
export type Admit = (user: string, cost: number) => Promise<number>;

/** The bucket refused a read: `waitMs` until the trader's next whole token. */
class BucketEmpty extends Error {
  constructor(readonly waitMs: number) {
    super('rate limited');
  }
}

const rateLimited = (waitMs: number) => RelayErrors.GATEWAY_RATE_LIMITED(Math.ceil(waitMs / 1000));

export function heldReads(
  cache: ReadCache,
  admit: Admit | undefined,
  wait?: (ms: number) => Promise<unknown>,
) {
  const held = heldRefusals(wait);

  /** Throws BucketEmpty when the trader has used their reads (503 when uncountable). */
  async function admitted(user: string, cost: number): Promise<void> {
    if (!admit) return;
    let waitMs: number;
    try {
      waitMs = await admit(user, cost);
    } catch {
      throw RelayErrors.LIMITS_UNCHECKABLE();
    }
    if (waitMs > 0) throw new BucketEmpty(waitMs);
  }

  const readOnce = (user: string, route: ReadRoute) =>
    cache.read(route, (cost) => admitted(user, cost));

  /** The read; null when the client left while it was held. */
  async function readOrHold(
    user: string,
    route: ReadRoute,
    res: ServerResponse,
  ): Promise<CachedRead | null> {
    try {
      return await readOnce(user, route);
    } catch (err) {
      if (!(err instanceof BucketEmpty)) throw err;
      const outcome = await held.hold(user, err.waitMs, res);
      if (outcome === 'gone') return null;
      if (outcome === 'full') {
        res.setHeader('connection', 'close');
        throw rateLimited(err.waitMs);
      }
    }
    try {
      return await readOnce(user, route);
    } catch (err) {
      throw err instanceof BucketEmpty ? rateLimited(err.waitMs) : err;
    }
  }

  return Object.assign(readOrHold, { stats: held.stats });
}
