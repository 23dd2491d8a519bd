/**
 * Whether the market-data service answers, learned from every request the core makes
 * (backfill, safety net, polls, fetches after webhooks) rather than from one loop of its
 * own: a print that arrives by webhook and is fetched fine proves the service is up, so
 * the app can never say "Offline" while requests succeed.
 */
import { failureKind } from '../errors.js';
import { NetworkError } from '../../node/http/client.js';
import { AuthError } from '../../node/oauth/errors.js';
import { ServiceUrlError } from '../../node/service/errors.js';
import { withoutControls } from '../../shared/plain-text.js';
import type { SyncCalendarApi, SyncNewsApi } from './ports.js';
import { Emitter } from '../../shared/event.js';

export interface HealthSnapshot {
  /** Unix ms of the last answer from the service (any 2xx, or a 4xx that is about the data). */
  lastOkAt: number | null;
  /** Unix ms of the first failure of the current streak; null while requests succeed. */
  failingSince: number | null;
  /** The current streak's latest error, in words. */
  error: string | null;
}

/**
 * Errors that mean "the service cannot be reached or refuses us", as opposed to an answer
 * about the data (404 for a deleted record, a malformed item) which proves it is up: the
 * app's one catalogue decides (src/main/errors.ts `failureKind`).
 */
export function isConnectivityError(err: unknown): boolean {
  return failureKind(err).connectivity;
}

/**
 * The desk relay's own refusal through its read gateway (`{relay}/service/…`): its answer
 * `{error, message}` with a code of its own (a service answer it forwards keeps the
 * service's body; its failures to reach the service are `upstream_…`). Named as the desk
 * relay's, so a desk whose Redis is down does not read "the calendar service answered 503"
 * and blame the data vendor.
 */
function deskRelayRefusal(e: { url?: unknown; json?: unknown; status?: unknown }): string | null {
  if (typeof e.url !== 'string' || !/\/service\/(calendar|news)\//.test(e.url)) return null;
  const body = e.json as { error?: unknown; message?: unknown } | null | undefined;
  if (typeof body?.error !== 'string' || typeof body.message !== 'string') return null;
  if (body.error.startsWith('upstream_')) return null;
  const why = withoutControls(body.message).slice(0, 200);
  return `The desk relay answered HTTP ${String(e.status)}: ${why}`;
}

/** One sentence for the banner: what failed, without URLs or response bodies. */
export function describeOutage(err: unknown): string {
  const e = err as { name?: unknown; status?: unknown; url?: unknown; message?: unknown };
  const desk = deskRelayRefusal(e as { url?: unknown; json?: unknown; status?: unknown });
  if (desk !== null) return desk;
  const api = typeof e.url === 'string' ? /\/(calendar|news|auth)\b/.exec(e.url)?.[1] : undefined;
  const who = api === 'auth' ? 'The token service' : api ? `The ${api} service` : 'The service';
  if (err instanceof AuthError || err instanceof ServiceUrlError) return err.message; // already plain
  if (err instanceof NetworkError) return `${who} cannot be reached`;
  if (e.status === 429) return `${who} asks us to slow down (HTTP 429)`;
  if (e.status === 401) return `${who} refused the access token (HTTP 401)`;
  if (typeof e.status === 'number') return `${who} answered HTTP ${e.status}`;
  return typeof e.message === 'string' ? e.message : String(err);
}

/** The kind of a failure, whichever API it came from: "status 503", "NetworkError", … */
function outageKind(err: unknown): string {
  const e = err as { name?: unknown; status?: unknown; code?: unknown };
  if (typeof e.status === 'number') return `status ${e.status}`;
  return String(e.name ?? e.code ?? 'error');
}

export class ServiceHealth {
  private snapshot: HealthSnapshot = { lastOkAt: null, failingSince: null, error: null };
  /** The current streak's kind of failure (outageKind), so its reason stays put. */
  private kind: string | null = null;
  /**
   * A listener that throws is isolated (reported by the emitter): inside `track` it would
   * otherwise turn a request that succeeded into a failure recorded against the service.
   */
  private readonly changed = new Emitter<{ snapshot: HealthSnapshot; recovered: boolean }>({
    name: 'ServiceHealth.onChange',
  });

  constructor(private readonly now: () => number = Date.now) {}

  get(): HealthSnapshot {
    return this.snapshot;
  }

  get failing(): boolean {
    return this.snapshot.failingSince !== null;
  }

  /** Listen for changes; `recovered` is true on the first success after a failing streak. */
  onChange(listener: (s: HealthSnapshot, recovered: boolean) => void): () => void {
    const subscription = this.changed.event((c) => listener(c.snapshot, c.recovered));
    return () => subscription.dispose();
  }

  recordOk(): void {
    const recovered = this.snapshot.failingSince !== null;
    const first = this.snapshot.lastOkAt === null;
    this.snapshot = { lastOkAt: this.now(), failingSince: null, error: null };
    // Every answer moves lastOkAt, but only a change of state is news worth a push.
    if (recovered || first) this.emit(recovered);
  }

  recordFailure(err: unknown): void {
    if (!isConnectivityError(err)) {
      this.recordOk();
      return;
    }
    const kind = outageKind(err);
    // One reason per kind of failure: calendar and news failing alike must not make the
    // reason flip between them with every request.
    const same = this.snapshot.failingSince !== null && this.kind === kind;
    const message = same && this.snapshot.error ? this.snapshot.error : describeOutage(err);
    const changed = this.snapshot.failingSince === null || this.snapshot.error !== message;
    this.kind = kind;
    this.snapshot = {
      ...this.snapshot,
      failingSince: this.snapshot.failingSince ?? this.now(),
      error: message,
    };
    if (changed) this.emit(false);
  }

  /** Run a request and record its outcome; the result or error passes through unchanged. */
  async track<T>(request: () => Promise<T>): Promise<T> {
    try {
      const value = await request();
      this.recordOk();
      return value;
    } catch (err) {
      this.recordFailure(err);
      throw err;
    }
  }

  private emit(recovered: boolean): void {
    this.changed.fire({ snapshot: this.snapshot, recovered });
  }
}

/** The calendar and news clients with every call's outcome recorded in `health`. */
export function observeApis<C extends SyncCalendarApi, N extends SyncNewsApi>(
  health: ServiceHealth,
  calendar: C,
  news: N,
): { calendar: C; news: N } {
  return { calendar: observed(health, calendar), news: observed(health, news) };
}

function observed<T extends object>(health: ServiceHealth, api: T): T {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        // Only promises are requests; nested objects (webhooks) pass through as they are.
        return result instanceof Promise ? health.track(() => result) : result;
      };
    },
  });
}
