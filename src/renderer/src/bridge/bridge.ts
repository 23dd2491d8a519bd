/** The renderer's one door to the main process: IPC in Electron, HTTP + SSE in web mode. */
import type { AppApi, PushEvent, PushPayloads } from '../../../shared/ipc.js';

export type Connection = 'online' | 'offline';

export interface Bridge {
  api: AppApi;
  on<E extends PushEvent>(event: E, listener: (payload: PushPayloads[E]) => void): () => void;
  /**
   * Web mode: the push stream resumed too late to replay what it missed (the host's log
   * moved on, or the host restarted): everything shown must be read again.
   */
  onResync?(listener: () => void): () => void;
  /** Whether the host (main process or web host) is reachable. */
  onConnection(listener: (c: Connection) => void): () => void;
  readonly kind: 'ipc' | 'http' | 'test';
}

/** A failed request, with the main process's message for the user. */
export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** Build an AppApi whose every method goes through `invoke`. */
export function apiFrom(invoke: (method: string, input: unknown) => Promise<unknown>): AppApi {
  return new Proxy({} as AppApi, {
    get: (_t, method) =>
      typeof method === 'string' ? (input?: unknown) => invoke(method, input) : undefined,
  });
}
