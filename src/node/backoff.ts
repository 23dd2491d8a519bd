/**
 * The one backoff: how long to wait before retry number `attempt` (0 for the first).
 * Exponential ceilings (base·2^attempt, capped), or a listed schedule, with jitter so
 * clients that failed together do not retry together; a server's Retry-After wins over
 * the computed delay, capped so a hostile or mistaken hint cannot park the client.
 * Used by the HTTP client (src/node/http/client.ts), the relay consumer and the safety
 * net (src/main/sync/), the watch-list upload (src/main/desk/) and the simulator's
 * webhook deliveries.
 */

export interface BackoffPolicy {
  /** Ceiling of the first delay. */
  baseMs: number;
  /** No ceiling grows past this. */
  maxMs: number;
  /**
   * full: anywhere in [0, ceiling) (spreads retries the most);
   * equal: in [ceiling/2, ceiling) (never a near-immediate retry);
   * none: the ceiling itself (a documented schedule).
   */
  jitter: 'full' | 'equal' | 'none';
  /** Listed ceilings instead of doubling; the last one repeats. */
  schedule?: readonly number[];
  /** A longer Retry-After is capped to this (default: maxMs). */
  maxRetryAfterMs?: number;
}

export interface BackoffInput {
  /** The server's Retry-After, in ms (see retryAfterMs), if it sent one. */
  retryAfterMs?: number | null;
  /** Stretches ceiling and cap (the relay consumer's slow lane for a rejected token). */
  factor?: number;
  random?: () => number;
}

/** The ceiling for retry number `attempt` before jitter. */
export function backoffCeiling(policy: BackoffPolicy, attempt: number, factor = 1): number {
  const n = Math.max(0, Math.floor(attempt));
  if (policy.schedule && policy.schedule.length > 0) {
    const listed = policy.schedule[Math.min(n, policy.schedule.length - 1)] as number;
    return Math.min(policy.maxMs, listed) * factor;
  }
  // 2^n overflows to Infinity long after the cap: min() still answers the cap.
  return Math.min(policy.maxMs * factor, policy.baseMs * 2 ** Math.min(n, 1024) * factor);
}

/** The wait before retry number `attempt`: the server's hint when given, else jittered. */
export function backoffDelay(
  policy: BackoffPolicy,
  attempt: number,
  input: BackoffInput = {},
): number {
  if (input.retryAfterMs !== null && input.retryAfterMs !== undefined) {
    return Math.max(0, Math.min(input.retryAfterMs, policy.maxRetryAfterMs ?? policy.maxMs));
  }
  const ceiling = backoffCeiling(policy, attempt, input.factor);
  const random = input.random ?? Math.random;
  switch (policy.jitter) {
    case 'full':
      return random() * ceiling;
    case 'equal':
      return ceiling / 2 + (random() * ceiling) / 2;
    case 'none':
      return ceiling;
  }
}

/** Retry-After as ms: seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(
  header: string | string[] | undefined,
  now = Date.now(),
): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

/** The Retry-After an error carries (HttpError and friends keep the response headers). */
export function retryAfterOf(err: unknown): number | null {
  if (typeof err !== 'object' || err === null) return null;
  const headers = (err as { headers?: Record<string, string | string[] | undefined> }).headers;
  return headers && typeof headers === 'object' ? retryAfterMs(headers['retry-after']) : null;
}
