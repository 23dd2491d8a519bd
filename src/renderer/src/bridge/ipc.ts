/** Electron: the preload's `window.macrobell`, exactly the shared contract. */
import type { PreloadBridge, PushEvent, RequestMethod } from '../../../shared/ipc.js';
import { reportBadPush } from '../lib/error-reports.js';
import { apiFrom, BridgeError, type Bridge } from './bridge.js';
import { createPushGate } from './push-check.js';

export function createIpcBridge(
  preload: PreloadBridge,
  onBadPush: (problem: string) => void = reportBadPush,
): Bridge {
  const checkPush = createPushGate(onBadPush);
  // One preload subscription per push, checked once, then handed to every listener.
  const listeners = new Map<PushEvent, Set<(p: unknown) => void>>();
  const listenersOf = (event: PushEvent) => {
    let set = listeners.get(event);
    if (!set) {
      const subscribers = new Set<(p: unknown) => void>();
      set = subscribers;
      listeners.set(event, set);
      preload.on(event, (raw) =>
        checkPush(event, raw, (payload) => subscribers.forEach((l) => l(payload))),
      );
    }
    return set;
  };
  return {
    kind: 'ipc',
    api: apiFrom(async (method, input) => {
      const r = await preload.invoke(method as RequestMethod, input);
      if (!r.ok) throw new BridgeError(r.error.error, r.error.message);
      return r.value;
    }),
    on(event, listener) {
      const set = listenersOf(event);
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
    onConnection: () => () => undefined,
  };
}
