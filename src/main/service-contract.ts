/**
 * What the composition root (src/main/service.ts) gives its hosts: the Electron glue
 * (src/main/electron/) and the web-mode host (src/main/web/). Both forward requests to
 * `api` (after validating them with parseRequest from src/shared/ipc.ts) and subscribe to
 * `on(...)` for pushes and native notifications — the one name-keyed interface, at the
 * host boundary; inside the core every event is a typed `Event<T>` of its producer.
 */
import type { AppApi, PushEvent, PushPayloads } from '../shared/ipc.js';
import type { EventDate } from '../shared/domain.js';
import { Emitter } from '../shared/event.js';

/** The pushes, `notification` (show natively, already grouped and deduped) among them. */
export type ServiceEvents = PushPayloads;

export type Unsubscribe = () => void;

export interface MacrobellService {
  readonly api: AppApi;
  /** True when running on the built-in simulator with demo keys. */
  readonly demo: boolean;
  /** Folder holding the database, settings and logs. */
  readonly dataDir: string;
  on<E extends PushEvent>(event: E, listener: (payload: ServiceEvents[E]) => void): Unsubscribe;
  /** Next few releases at or above a volatility, soonest first, for the tray menu. */
  upcomingReleases(limit: number): EventDate[];
  /** Start syncing (backfill, then relay or polling). Resolves once the cache is usable. */
  start(): Promise<void>;
  /** Stop timers and connections, flush and close the database. Idempotent. */
  stop(): Promise<void>;
}

/** One emitter per push of the contract (the compiler checks the list against PushPayloads). */
export type PushEmitters = { readonly [E in PushEvent]: Emitter<PushPayloads[E]> };

export function createPushEmitters(onListenerError?: (err: unknown) => void): PushEmitters {
  const emitter = <T>() => new Emitter<T>(onListenerError);
  // Written out so the compiler checks each push has its own emitter of its own payload.
  return {
    changes: emitter(),
    alert: emitter(),
    status: emitter(),
    backfill: emitter(),
    notification: emitter(),
    navigate: emitter(),
    update: emitter(),
    banner: emitter(),
    fallback: emitter(),
    settings: emitter(),
    alertsRead: emitter(),
  };
}

/** `MacrobellService.on` over a set of push emitters. */
export function onPush<E extends PushEvent>(
  emitters: PushEmitters,
  event: E,
  listener: (payload: PushPayloads[E]) => void,
): Unsubscribe {
  const subscription = emitters[event].event(listener);
  return () => subscription.dispose();
}
