/**
 * What the composition root (src/main/service.ts) gives its hosts: the Electron glue
 * (src/main/electron/) and the web-mode host (src/main/web/). Both forward requests to
 * `api` (after validating them with parseRequest from src/shared/ipc.ts) and subscribe to
 * `on(...)` for pushes and native notifications.
 */
import type { AppApi, PushPayloads } from '../shared/ipc.js';
import type { EventDate, NativeNotification } from '../shared/domain.js';

export interface ServiceEvents extends PushPayloads {
  /** Show this as a native OS notification (already coalesced, deduped, quiet-hours aware). */
  notification: NativeNotification;
}

export type Unsubscribe = () => void;

export interface MacrobellService {
  readonly api: AppApi;
  /** True when running on the built-in simulator with demo keys. */
  readonly demo: boolean;
  /** Folder holding the database, settings and logs. */
  readonly dataDir: string;
  on<E extends keyof ServiceEvents>(
    event: E,
    listener: (payload: ServiceEvents[E]) => void,
  ): Unsubscribe;
  /** Next few releases at or above a volatility, soonest first, for the tray menu. */
  upcomingReleases(limit: number): EventDate[];
  /** Start syncing (backfill, then relay or polling). Resolves once the cache is usable. */
  start(): Promise<void>;
  /** Stop timers and connections, flush and close the database. Idempotent. */
  stop(): Promise<void>;
}
