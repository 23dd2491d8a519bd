/** Web mode: `POST /api/<method>` and pushes over `EventSource('/api/events')`. */
import {
  PUSH_EVENTS,
  WEB_API_PREFIX,
  WEB_EVENTS_PATH,
  type PushEvent,
  type RequestResult,
} from '../../../shared/ipc.js';
import { apiFrom, BridgeError, type Bridge, type Connection } from './bridge.js';

export function createHttpBridge(): Bridge {
  const listeners = new Map<PushEvent, Set<(p: unknown) => void>>();
  const connListeners = new Set<(c: Connection) => void>();
  let connection: Connection = 'online';
  const setConnection = (c: Connection) => {
    if (c === connection) return;
    connection = c;
    connListeners.forEach((l) => l(c));
  };

  const source = new EventSource(WEB_EVENTS_PATH);
  source.onopen = () => setConnection('online');
  source.onerror = () => setConnection('offline');
  for (const name of PUSH_EVENTS) {
    source.addEventListener(name, (e) => {
      const payload: unknown = JSON.parse((e as MessageEvent<string>).data);
      listeners.get(name)?.forEach((l) => l(payload));
    });
  }

  return {
    kind: 'http',
    api: apiFrom(async (method, input) => {
      let res: Response;
      try {
        res = await fetch(`${WEB_API_PREFIX}${method}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? null),
        });
      } catch {
        setConnection('offline');
        throw new BridgeError('offline', 'Macrobell is not reachable.');
      }
      setConnection('online');
      const body = (await res.json().catch(() => null)) as RequestResult<unknown> | null;
      if (!body) throw new BridgeError('bad_response', `HTTP ${res.status}`);
      if (!body.ok) throw new BridgeError(body.error.error, body.error.message);
      return body.value;
    }),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    onConnection(listener) {
      connListeners.add(listener);
      return () => connListeners.delete(listener);
    },
  };
}
